// The token-guarded front (server/guarded-proxy.ts) before a real service on 127.0.0.1: nothing passes without the
// token, the token never reaches the service (which gets its own credentials and a local Host), HTTP and WebSocket
// upgrades both.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startGuardedProxy } from '../../server/guarded-proxy.ts';
import { bearerMatches } from '../../server/secrets.ts';

const TOKEN = 'front-token';
const UPSTREAM_AUTH = 'Basic OnBhc3N3b3Jk';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** What the service behind the front received, in order. */
const seen: Seen[] = [];
const servers: http.Server[] = [];
/** Every connection to them: upgraded sockets leave the HTTP server's own bookkeeping, so closing needs these. */
const sockets = new Set<Socket>();
let service: http.Server;
let front: string;
let frontPort: number;

const portOf = (server: http.Server) => (server.address() as AddressInfo).port;

async function listening(server: http.Server): Promise<http.Server> {
  server.on('connection', (socket: Socket) => sockets.add(socket));
  if (!server.listening) await new Promise((resolve) => server.once('listening', resolve));
  servers.push(server);
  return server;
}

/** A front on a free port before `targetPort`. */
async function startFront(targetPort: number, upstreamAuthorization?: string): Promise<number> {
  const server = startGuardedProxy({ port: 0, targetPort, authorized: (header) => bearerMatches(TOKEN, header), upstreamAuthorization });
  return portOf(await listening(server));
}

beforeAll(async () => {
  // The service: echoes what it got; upgrades answer 101 and then echo every byte back upper-cased.
  service = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString() });
    res.writeHead(201, { 'x-service': 'yes' }).end('from the service');
  });
  service.on('upgrade', (req: http.IncomingMessage, socket: Socket) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: '' });
    socket.write('HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: Upgrade\r\n\r\n');
    socket.on('data', (data: Buffer) => socket.write(data.toString().toUpperCase()));
  });
  service.listen(0, '127.0.0.1');
  await listening(service);
  frontPort = await startFront(portOf(service), UPSTREAM_AUTH);
  front = `http://127.0.0.1:${frontPort}`;
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

test('without the token: 401, and the service never hears of the request', async () => {
  const before = seen.length;
  for (const authorization of [undefined, 'Bearer wrong', UPSTREAM_AUTH]) {
    const response = await fetch(`${front}/json/version`, { headers: authorization ? { authorization } : {} });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ status: 'error', message: 'missing or wrong bearer token' });
  }
  expect(seen.length).toBe(before);
});

test('with the token: method, path, body forwarded; the service sees its own credentials and a local Host', async () => {
  const response = await fetch(`${front}/requests/status.json?command=pl_pause`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'x-extra': 'kept' },
    body: 'payload',
  });
  expect(response.status).toBe(201);
  expect(response.headers.get('x-service')).toBe('yes');
  expect(await response.text()).toBe('from the service');
  const request = seen.at(-1)!;
  expect(request).toMatchObject({ method: 'POST', url: '/requests/status.json?command=pl_pause', body: 'payload' });
  expect(request.headers).toMatchObject({ authorization: UPSTREAM_AUTH, host: `127.0.0.1:${portOf(service)}`, 'x-extra': 'kept' });
});

test('a front with no credentials of its own drops the Authorization header', async () => {
  const port = await startFront(portOf(service));
  await fetch(`http://127.0.0.1:${port}/json`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(seen.at(-1)!.headers.authorization).toBeUndefined();
});

test('nothing listening behind the front: 502 that names the port', async () => {
  const gone = http.createServer();
  gone.listen(0, '127.0.0.1');
  await new Promise((resolve) => gone.once('listening', resolve));
  const closedPort = portOf(gone);
  await new Promise((resolve) => gone.close(resolve));
  const port = await startFront(closedPort);
  const response = await fetch(`http://127.0.0.1:${port}/json`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(response.status).toBe(502);
  expect((await response.json()).message).toContain(`nothing answers on port ${closedPort} inside the desktop`);
});

/** An upgrade request to the front: the status it got and, after a 101, what the service echoed for `send`. */
function upgrade(authorization: string | undefined, send: string): Promise<{ status: number; echoed?: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { connection: 'Upgrade', upgrade: 'websocket' };
    if (authorization) headers.authorization = authorization;
    const request = http.request({ host: '127.0.0.1', port: frontPort, path: '/devtools/page/1', headers });
    request.on('response', (response) => {
      response.resume();
      resolve({ status: response.statusCode ?? 0 });
    });
    request.on('upgrade', (response, socket) => {
      socket.once('data', (data: Buffer) => {
        socket.destroy();
        resolve({ status: response.statusCode ?? 0, echoed: data.toString() });
      });
      socket.write(send);
    });
    request.on('error', reject);
    request.end();
  });
}

test('WebSocket upgrade without the token: 401, nothing reaches the service', async () => {
  const before = seen.length;
  expect(await upgrade('Bearer wrong', 'hello')).toEqual({ status: 401 });
  expect(seen.length).toBe(before);
});

test('WebSocket upgrade with the token: piped both ways, the token swapped for the service\'s credentials', async () => {
  expect(await upgrade(`Bearer ${TOKEN}`, 'hello cdp')).toEqual({ status: 101, echoed: 'HELLO CDP' });
  const request = seen.at(-1)!;
  expect(request).toMatchObject({ method: 'GET', url: '/devtools/page/1' });
  expect(request.headers).toMatchObject({ authorization: UPSTREAM_AUTH, host: `127.0.0.1:${portOf(service)}`, upgrade: 'websocket' });
});
