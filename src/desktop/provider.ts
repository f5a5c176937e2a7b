// Where a task's desktop comes from. `docker`: a fresh local container per task (testcontainers, see
// providers/docker/container.ts). `remote`: an already running OSWorld-protocol server — an OSWorld VM, or our container on
// another host — which deskbench neither starts nor stops.
import { Registry } from '../shared/registry.ts';
import { DesktopClient, DesktopRequestError, DesktopUnavailableError } from './client.ts';
import type { DesktopLimits } from './providers/docker/container.ts';
import type { DesktopPoolAddress } from './providers/docker/warm-pool-endpoint.ts';
import { OptionsError } from '../errors.ts';

/** A service of the desktop the host talks to: its URL, and the headers every request to it carries. */
export interface DesktopService {
  url: string;
  headers: Record<string, string>;
}

export interface DesktopHandle {
  client: DesktopClient;
  /** The desktop's Chrome DevTools endpoint (its port 9222), for CDP setup steps and getters. */
  cdp?: DesktopService;
  /** The desktop's VLC HTTP interface (its port 8080). */
  vlc?: DesktopService;
  /** Container id or server URL, for messages. */
  id: string;
  /** False once the desktop is gone (container stopped or killed). */
  isAlive(): Promise<boolean>;
  stop(): Promise<void>;
}

export type DesktopSpec =
  | {
      provider: 'docker';
      image?: string;
      limits?: DesktopLimits;
      hostAddress?: string;
      /** Desktops the run starts ahead of its tasks (default: one per vitest worker; 0: each task starts its own). */
      warm?: number;
      /** The run's pool of warm desktops (set by the plugin's runtime when it has one): take one there. */
      pool?: DesktopPoolAddress;
      /** The run whose label the container carries (default: this process's, run-id.ts). */
      runId?: string;
    }
  | { provider: 'remote'; url: string; token?: string };

/** How a provider starts (or connects to) a desktop for one task. */
type DesktopProvider = (spec: DesktopSpec) => Promise<DesktopHandle>;

/** The desktop providers by name, the same registry shape as metrics, getters, setup steps and agents. */
const providers = new Registry<DesktopProvider>('desktop provider');
providers.define('docker', (spec) => startDockerDesktop(spec as Extract<DesktopSpec, { provider: 'docker' }>));
providers.define('remote', (spec) => connectRemoteDesktop(spec as Extract<DesktopSpec, { provider: 'remote' }>));

export function startDesktopFor(spec: DesktopSpec): Promise<DesktopHandle> {
  const provider = providers.get(spec.provider);
  if (!provider) throw new OptionsError(providers.unknownMessage(spec.provider));
  return provider(spec);
}

/** A fresh local container, or one of the run's warm desktops when the run has a pool. */
async function startDockerDesktop(spec: Extract<DesktopSpec, { provider: 'docker' }>): Promise<DesktopHandle> {
  if (spec.pool) {
    const { takeDesktopFrom } = await import('./providers/docker/warm-pool-endpoint.ts');
    return takeDesktopFrom(spec.pool);
  }
  const { startDesktop } = await import('./providers/docker/container.ts');
  const desktop = await startDesktop({ image: spec.image, limits: spec.limits, hostAddress: spec.hostAddress, runId: spec.runId });
  return {
    client: desktop.client,
    cdp: desktop.cdp,
    vlc: desktop.vlc,
    id: desktop.containerId,
    isAlive: () => answers(desktop.client),
    stop: () => desktop.stop(),
  };
}

/**
 * A server someone else runs. Its CDP and VLC ports are assumed on the same host, as on an OSWorld VM: 9222 with no
 * authentication, 8080 with OSWorld's VLC password.
 */
async function connectRemoteDesktop({ url, token }: Extract<DesktopSpec, { provider: 'remote' }>): Promise<DesktopHandle> {
  const client = new DesktopClient({ url, token });
  try {
    await client.request('GET', '/platform', undefined, 10_000);
  } catch (error) {
    if (error instanceof DesktopRequestError && error.status === 401) {
      throw new OptionsError(`remote desktop ${url} refused the token (HTTP 401): pass the token its server was started with (desktop.token)`);
    }
    throw new DesktopUnavailableError(`remote desktop ${url} does not answer GET /platform (${(error as Error).message}): is the OSWorld server running there (port 5000)?`);
  }
  const withPort = (port: number) => {
    const u = new URL(url);
    u.port = String(port);
    return u.origin;
  };
  return {
    client,
    cdp: { url: withPort(9222), headers: {} },
    vlc: { url: withPort(8080), headers: { authorization: `Basic ${Buffer.from(':password').toString('base64')}` } },
    id: url,
    isAlive: () => answers(client),
    stop: async () => {},
  };
}

/** Whether the desktop's control server answers within `timeoutMs`. */
export async function answers(client: DesktopClient, timeoutMs = 5_000): Promise<boolean> {
  try {
    await client.request('GET', '/platform', undefined, timeoutMs);
    return true;
  } catch {
    return false;
  }
}
