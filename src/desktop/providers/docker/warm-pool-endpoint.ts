// How vitest's workers get a desktop from the run's pool (warm-pool.ts), which lives in the main process: a loopback
// HTTP endpoint guarded by a random token. Its address and token reach the workers in deskbench's worker payload
// (vitest's provide/inject, src/contract/payload.ts), never on disk; the answer carries the desktop's connection (its server and token, the
// DevTools and VLC fronts). The task then owns that desktop and removes its container when done.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DesktopClient, DesktopUnavailableError } from '../../client.ts';
import type { Desktop } from './container.ts';
import { type DesktopHandle, type DesktopPoolAddress, type DesktopService, type ServedDesktopPool, answers } from '../provider.ts';
import type { WarmDesktopPool } from './warm-pool.ts';

/** What a worker receives: enough to talk to the desktop and to remove it. */
interface HandedDesktop {
  id: string;
  url: string;
  token: string;
  cdp: DesktopService;
  vlc: DesktopService;
}

/** Serves `pool` on 127.0.0.1 (a free port) under a new random token. */
export async function serveDesktopPool(pool: WarmDesktopPool): Promise<ServedDesktopPool> {
  const token = randomBytes(24).toString('hex');
  const expected = Buffer.from(`Bearer ${token}`);
  const send = (response: ServerResponse, status: number, body: object) => {
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  const answer = async (incoming: IncomingMessage, response: ServerResponse) => {
    const given = Buffer.from(incoming.headers.authorization ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return send(response, 401, { error: 'wrong or missing token' });
    if (incoming.method !== 'POST' || incoming.url !== '/desktop') return send(response, 404, { error: 'POST /desktop is the only request' });
    let gone = false; // the worker went away while waiting (killed, or its run aborted)
    response.once('close', () => (gone = !response.writableFinished));
    try {
      const desktop = await pool.take();
      if (gone) return void desktop.stop().catch(() => {});
      send(response, 200, handedOver(desktop));
    } catch (error) {
      if (!gone) send(response, 503, { error: (error as Error).message ?? String(error) });
    }
  };
  const server = createServer((incoming, response) => void answer(incoming, response));
  // A request waits as long as its desktop takes to start (the start has its own timeout).
  server.requestTimeout = 0;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    address: { url: `http://127.0.0.1:${port}`, token },
    close: async () => {
      server.closeAllConnections();
      await Promise.all([new Promise((resolve) => server.close(resolve)), pool.close()]);
    },
  };
}

function handedOver(desktop: Desktop): HandedDesktop {
  return { id: desktop.containerId, url: desktop.url, token: desktop.token, cdp: desktop.cdp, vlc: desktop.vlc };
}

/** A desktop from the run's pool, as startDesktopFor returns one; stopping it removes its container. */
export async function takeDesktopFrom(pool: DesktopPoolAddress): Promise<DesktopHandle> {
  const { status, body } = await post(new URL('/desktop', pool.url), pool.token);
  let parsed: (HandedDesktop & { error?: undefined }) | { error: string };
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new DesktopUnavailableError(`the run's desktop pool (${pool.url}) answered HTTP ${status} with no JSON: ${body.slice(0, 200)}`);
  }
  // The pool's own error is the start's (no engine, no image …): passed on as it is, as without the pool.
  if (status !== 200 || parsed.error !== undefined) throw new DesktopUnavailableError(parsed.error ?? `the run's desktop pool answered HTTP ${status}`);
  const handed = parsed as HandedDesktop;
  const client = new DesktopClient({ url: handed.url, token: handed.token });
  return {
    client,
    cdp: handed.cdp,
    vlc: handed.vlc,
    id: handed.id,
    isAlive: () => answers(client),
    // Loaded when needed: a worker that never stops a pooled desktop need not load the engine's client.
    stop: async () => (await import('../../cleanup.ts')).removeContainer(handed.id),
  };
}

/** POST with no timeout of its own (fetch's would cut a long wait for a desktop short). */
function post(url: URL, token: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method: 'POST', headers: { authorization: `Bearer ${token}` } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    outgoing.on('error', (error) => reject(new DesktopUnavailableError(`the run's desktop pool (${url.origin}) does not answer: ${error.message}`)));
    outgoing.end();
  });
}
