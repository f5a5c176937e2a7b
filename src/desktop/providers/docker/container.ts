// Starts a desktop container from the local image with testcontainers and hands back a ready DesktopClient.
// Isolation (docs/security.md): the desktop's secrets reach it as a root-only file, not its environment; only the
// control server and its token-guarded fronts for Chrome's DevTools and VLC are published, on 127.0.0.1 by default;
// the container sits on its run's network, where desktops cannot reach each other; memory, CPUs and processes are
// limited.
import { randomBytes } from 'node:crypto';
import { GenericContainer, PullPolicy, Wait, getContainerRuntimeClient, type StartedTestContainer } from 'testcontainers';
import { DesktopClient } from '../../client.ts';
import { assertDesktopImage, desktopImage } from '../../image.ts';
import { DESKBENCH_LABEL, RUN_LABEL } from '../../labels.ts';
import { currentRunId } from '../../run-id.ts';
import { ensureRunNetwork } from '../../network.ts';
import type { DesktopService } from '../provider.ts';
import { DeskbenchError, type ErrorCode, OptionsError } from '../../../errors.ts';

// Ryuk's image cannot be pulled without a registry; containers are removed by label instead (cleanup.ts).
process.env.TESTCONTAINERS_RYUK_DISABLED ??= 'true';

/** Ports the image's control server listens on: the API, and the fronts for DevTools (→ 9222) and VLC (→ 8080). */
const API_PORT = 5000;
const CDP_FRONT_PORT = 5001;
const VLC_FRONT_PORT = 5002;
/** The host name of OSWorld's Ubuntu VM. */
const DESKTOP_HOSTNAME = 'user-virtual-machine';
/** What server/main.ts prints once it listens (it listens only when the desktop is usable). */
const SERVER_READY_LINE = new RegExp(`deskbench server listening on :${API_PORT}\\b`);

/** Lines of a starting container's log kept for the error when it never gets ready. */
const LOG_LINES_KEPT = 15;
/** testcontainers' message when the ready line did not come within the startup timeout. */
const STARTUP_TIMED_OUT = /not received after \d+ ?ms/;

/** A desktop container that did not get ready; the message ends with what its log said last. */
export class DesktopStartError extends DeskbenchError {
  override readonly code: ErrorCode = 'DESKBENCH_DESKTOP_START';
}

/** Resource limits of one desktop (docker run --memory, --cpus, --pids-limit). */
interface DesktopLimits {
  /** Bytes, or a size such as '4g' / '512m'. Default '4g' (OSWorld's VM has 4 GB). */
  memory?: number | string;
  /** CPUs the desktop may use (clamped to what the engine has). Default 2. */
  cpus?: number;
  /** Processes and threads. Default 4096. */
  pids?: number;
}

const DEFAULT_LIMITS = { memory: '4g', cpus: 2, pids: 4096 } as const;

export interface StartDesktopOptions {
  /** Image to run; default DESKBENCH_IMAGE or deskbench/desktop:latest. */
  image?: string;
  /** Run id for the deskbench.run label; default: the process's (run-id.ts). */
  runId?: string;
  /** Screen size; default 1920×1080. */
  width?: number;
  height?: number;
  /** Extra environment for the container (never put secrets here: the agent can read it). */
  env?: Record<string, string>;
  /** How long to wait for the control server, ms (default 120 s: GNOME Shell starts in ~2 s idle, far slower on a loaded machine). */
  startupTimeoutMs?: number;
  limits?: DesktopLimits;
  /**
   * Host address the ports are published on. Default 127.0.0.1: nothing outside this machine reaches the desktop.
   * With a remote engine (DOCKER_HOST=tcp://…) use '0.0.0.0' so this machine reaches it; the token still guards it.
   */
  hostAddress?: string;
}

export interface Desktop {
  client: DesktopClient;
  /** Base URL of the control server (mapped port 5000). */
  url: string;
  token: string;
  /** Chrome's DevTools (the desktop's 9222, where OSWorld tasks put socat in front of Chrome), behind the token. */
  cdp: DesktopService;
  /** VLC's HTTP interface (the desktop's 8080), behind the token. */
  vlc: DesktopService;
  containerId: string;
  container: StartedTestContainer;
  stop(): Promise<void>;
}

/** GenericContainer with the host settings testcontainers has no builder for: bind address and limits. */
class DesktopContainer extends GenericContainer {
  withHostSettings(settings: { hostAddress: string; memory: number; nanoCpus: number; pids: number }): this {
    for (const binding of Object.values(this.hostConfig.PortBindings ?? {})) {
      for (const port of binding as { HostIp?: string }[]) port.HostIp = settings.hostAddress;
    }
    Object.assign(this.hostConfig, {
      Memory: settings.memory,
      MemorySwap: settings.memory, // no swap beyond the limit
      NanoCpus: settings.nanoCpus,
      PidsLimit: settings.pids,
    });
    return this;
  }
}

export async function startDesktop(options: StartDesktopOptions = {}): Promise<Desktop> {
  const image = options.image ?? desktopImage();
  await assertDesktopImage(image);
  const runId = options.runId ?? currentRunId();
  const token = randomBytes(24).toString('hex');
  const env: Record<string, string> = { ...options.env };
  if (options.width) env.SCREEN_WIDTH = String(options.width);
  if (options.height) env.SCREEN_HEIGHT = String(options.height);
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const engineCpus = (await getContainerRuntimeClient()).info.containerRuntime.cpus || limits.cpus;
  const publishAddress = options.hostAddress ?? '127.0.0.1';
  const secrets = `token=${token}\nvlc_password=${randomBytes(18).toString('base64url')}\n`;

  // One start. What the container printed (the session's own complaints: "deskbench: the shell (shell-ready) did not
  // appear") goes into its error: testcontainers removes a container that never got ready, and its log with it.
  const start = async (attempt = '') => {
    const log: string[] = [];
    try {
      return await new DesktopContainer(image)
        .withNetworkMode(await ensureRunNetwork(runId))
        .withPullPolicy(PullPolicy.neverPull())
        .withExposedPorts(API_PORT, CDP_FRONT_PORT, VLC_FRONT_PORT)
        .withEnvironment(env)
        // Root-only, read and deleted by the entrypoint before any session process starts.
        .withCopyContentToContainer([{ content: secrets, target: '/run/deskbench/secrets', mode: 0o400 }])
        .withLabels({ [DESKBENCH_LABEL]: '1', [RUN_LABEL]: runId })
        // OSWorld's VM's name: the terminal's prompt reads user@user-virtual-machine, as agents saw it there.
        .withHostname(DESKTOP_HOSTNAME)
        .withSharedMemorySize(1024 * 1024 * 1024)
        .withHostSettings({
          hostAddress: publishAddress,
          memory: parseSize(limits.memory),
          nanoCpus: Math.round(Math.min(limits.cpus, engineCpus) * 1e9),
          pids: limits.pids,
        })
        // The server only listens once the display is usable, and says so on its log: that line means ready. Not an
        // HTTP poll: testcontainers polls the host it guesses, which can be the wrong one (below), and its read timeout
        // is also its polling interval, so on a loaded machine a ready desktop was never seen as ready.
        .withWaitStrategy(Wait.forLogMessage(SERVER_READY_LINE))
        .withStartupTimeout(options.startupTimeoutMs ?? 120_000)
        .withLogConsumer((stream) => {
          stream.on('data', (chunk: Buffer | string) => {
            for (const line of String(chunk).split('\n')) if (line.trim()) log.push(line.trimEnd());
            log.splice(0, Math.max(0, log.length - LOG_LINES_KEPT));
          });
        })
        .start();
    } catch (error) {
      const said = log.length
        ? `the container's log ended with:\n  ${log.join('\n  ')}`
        : 'the container printed nothing';
      throw new DesktopStartError(`${(error as Error).message}${attempt}; ${said}`, { cause: error });
    }
  };
  let container: StartedTestContainer;
  try {
    container = await start();
  } catch (error) {
    const cause = String(((error as Error).cause as Error | undefined)?.message);
    if (/network .* not found/i.test(cause)) {
      // The run's network can vanish between ensureRunNetwork and the start, when the run's cleanup removed it (a
      // desktop started after its run's teardown began): make it again, once.
      container = await start();
    } else if (STARTUP_TIMED_OUT.test(cause)) {
      // A desktop that never got ready (a fresh CI run saw one in ~1,200: a session stuck at its start while a dozen
      // desktops started at once, where the rest were ready in under 30 s). Nothing of the task has run yet, and
      // testcontainers removed the container: start another, once, and say so.
      console.error(`[deskbench] a desktop did not get ready; starting another. ${(error as Error).message}`);
      container = await start(' (the second of two starts)');
    } else {
      throw error;
    }
  }
  // Where the published ports are reachable. testcontainers guesses the engine's host, and when this process itself
  // runs in a container (a /.dockerenv, as in some CI sandboxes) it picks the default bridge's gateway, where ports
  // published on 127.0.0.1 are not reachable. A loopback publish address means a local engine: connect there.
  const host = isLoopback(publishAddress) ? publishAddress : container.getHost();
  const url = `http://${host}:${container.getMappedPort(API_PORT)}`;
  const headers = { authorization: `Bearer ${token}` };
  return {
    client: new DesktopClient({ url, token }),
    url,
    token,
    cdp: { url: `http://${host}:${container.getMappedPort(CDP_FRONT_PORT)}`, headers },
    vlc: { url: `http://${host}:${container.getMappedPort(VLC_FRONT_PORT)}`, headers },
    containerId: container.getId(),
    container,
    // The run's network stays for the run's other desktops: the run's cleanup removes it (cleanup.ts).
    stop: () => container.stop({ timeout: 0, remove: true, removeVolumes: true }).then(() => {}),
  };
}

function isLoopback(address: string): boolean {
  return address === 'localhost' || address === '::1' || address.startsWith('127.');
}

/** '4g', '512m', '1.5g', 2147483648 → bytes (Docker's units: k, m, g are powers of 1024). */
export function parseSize(size: number | string): number {
  if (typeof size === 'number') return size;
  const match = /^(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?$/i.exec(size.trim());
  if (!match) throw new OptionsError(`desktop limits: memory must be a number of bytes or a size such as '4g' or '512m' (got ${JSON.stringify(size)})`);
  const power = ' kmgt'.indexOf(match[2].toLowerCase() || ' ');
  return Math.round(Number(match[1]) * 1024 ** power);
}
