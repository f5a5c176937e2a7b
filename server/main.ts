// deskbench control server: OSWorld's in-VM HTTP protocol on port 5000, for the desktop container, plus
// token-guarded fronts for Chrome's DevTools port (5001 → 9222) and VLC's HTTP interface (5002 → 8080).
// Every request needs `Authorization: Bearer <token>` (see secrets.ts); without a configured token nothing is served.
// It starts listening only once the X display answers and the window manager is up, so "the server answers"
// means "the desktop is usable".
// What runs where: all of server/ runs inside the desktop container, bundled by esbuild (scripts/build-image.sh) into
// /opt/deskbench/server.mjs for the image's own Node (Debian bookworm's, Node 18; code-server's Node 20 in /opt/node20 is not on PATH).
// So server/tsconfig.json checks it for Node 18 with no DOM. Of src/ (the host side, which talks to it over HTTP) it
// bundles only src/shared/shlex.ts and src/python/repr.ts (both in the image's hash). Its unit tests (test/server/) run on the host's Node.
import http from 'node:http';
import { ROUTES, type Request } from './endpoints.ts';
import { startGuardedProxy } from './guarded-proxy.ts';
import { HttpError, formBody, jsonBody, readBody, sendJson, sendText } from './http.ts';
import { displayReady } from './screen.ts';
import { bearerMatches, loadSecrets } from './secrets.ts';

const PORT = Number(process.env.DESKBENCH_PORT ?? 5000);
const CDP_FRONT_PORT = 5001;
const VLC_FRONT_PORT = 5002;
const { token: TOKEN, vlcPassword } = loadSecrets();

const authorized = (header: string | undefined) => bearerMatches(TOKEN, header);

const server = http.createServer(async (req, res) => {
  const started = Date.now();
  const url = new URL(req.url ?? '/', 'http://localhost');
  try {
    if (!authorized(req.headers.authorization)) {
      req.resume();
      return sendJson(res, 401, {
        status: 'error',
        message: TOKEN ? 'missing or wrong bearer token' : 'the server has no token: every request is refused',
      });
    }
    const handler = ROUTES[`${req.method} ${url.pathname}`];
    if (!handler) {
      req.resume();
      const known = Object.keys(ROUTES).some((route) => route.endsWith(` ${url.pathname}`));
      return sendText(res, known ? 405 : 404, known ? 'Method Not Allowed' : 'Not Found');
    }
    const body = await readBody(req);
    const request: Request = { req, body, json: () => jsonBody(body), form: () => formBody(req, body) };
    await handler(request, res);
  } catch (error) {
    if (res.headersSent) {
      res.destroy(error as Error);
    } else if (error instanceof HttpError) {
      if (typeof error.body === 'string') sendText(res, error.status, error.body);
      else sendJson(res, error.status, error.body);
    } else {
      sendJson(res, 500, { status: 'error', message: (error as Error).message });
    }
  } finally {
    if (process.env.DESKBENCH_LOG_REQUESTS) {
      console.log(`${req.method} ${url.pathname} ${res.statusCode} ${Date.now() - started}ms`);
    }
  }
});
server.requestTimeout = 0; // open_file and long commands legitimately take minutes
server.keepAliveTimeout = 30_000;

async function main(): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await displayReady())) {
    if (Date.now() > deadline) {
      console.error('deskbench: the display or window manager is not ready after 30 s; serving anyway');
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  server.listen(PORT, '0.0.0.0', () => console.log(`deskbench server listening on :${PORT}`));
  startGuardedProxy({ port: CDP_FRONT_PORT, targetPort: 9222, authorized });
  startGuardedProxy({
    port: VLC_FRONT_PORT,
    targetPort: 8080,
    authorized,
    upstreamAuthorization: `Basic ${Buffer.from(`:${vlcPassword}`).toString('base64')}`,
  });
}

void main();
