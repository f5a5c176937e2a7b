// A dataset host on the loopback for the files tests and benchmarks: Node's http serving generated files, with the
// behaviours a real host has — Hugging Face's `…/resolve/<ref>/<path>` answered by a redirect that names the commit
// (X-Repo-Commit), HTTP Range, a delay before each answer — and the failures the tests need: a file that fails a
// number of times (503), a body cut half way, a 404. Every request is recorded.
import { createHash } from 'node:crypto';
import { type IncomingMessage, type Server, createServer } from 'node:http';

interface ServedRequest {
  path: string;
  range?: string;
}

export interface FileServer {
  /** http://127.0.0.1:<port> */
  base: string;
  /** Path (with a leading /) → content. Under `/resolve/<ref>/`, a file is looked up by ref (see `commits`). */
  files: Map<string, Buffer>;
  /** For `/resolve/<ref>/…` paths: ref → the commit it stands for now, and commit → its files (path after the ref). */
  commits: { refs: Map<string, string>; trees: Map<string, Map<string, Buffer>> };
  /** Path → answers still to fail with 503. */
  failTimes: Map<string, number>;
  /** Paths whose next answer is cut after half the body. */
  cutOnce: Set<string>;
  /** Milliseconds to wait before answering each request. */
  delayMs: number;
  requests: ServedRequest[];
  hits(path: string): number;
  close(): Promise<void>;
}

export function sha256(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}

const RESOLVE = /^\/resolve\/([^/]+)\/(.+)$/;

export async function startFileServer(): Promise<FileServer> {
  const state: Omit<FileServer, 'base' | 'hits' | 'close'> = {
    files: new Map(),
    commits: { refs: new Map(), trees: new Map() },
    failTimes: new Map(),
    cutOnce: new Set(),
    delayMs: 0,
    requests: [],
  };
  const server: Server = createServer((request, response) => {
    const path = decodeURIComponent((request.url ?? '/').split('?')[0]);
    state.requests.push({ path, ...(request.headers.range ? { range: request.headers.range } : {}) });
    const answer = () => serve(state, path, request, response);
    if (state.delayMs > 0) setTimeout(answer, state.delayMs);
    else answer();
  });
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const port = (server.address() as { port: number }).port;
  return {
    ...state,
    base: `http://127.0.0.1:${port}`,
    get delayMs() {
      return state.delayMs;
    },
    set delayMs(value: number) {
      state.delayMs = value;
    },
    hits: (path) => state.requests.filter((request) => request.path === path).length,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

function serve(state: Omit<FileServer, 'base' | 'hits' | 'close'>, path: string, request: IncomingMessage, response: import('node:http').ServerResponse): void {
  const failures = state.failTimes.get(path) ?? 0;
  if (failures > 0) {
    state.failTimes.set(path, failures - 1);
    response.writeHead(503, { 'retry-after': '0' }).end('try again');
    return;
  }
  const resolved = RESOLVE.exec(path);
  if (resolved) {
    const [, ref, file] = resolved;
    const commit = state.commits.refs.get(ref) ?? ref;
    const data = state.commits.trees.get(commit)?.get(file);
    if (!data) {
      response.writeHead(404).end('no such file');
      return;
    }
    // As Hugging Face does for a file in LFS: the commit on a redirect to where the bytes are.
    response.writeHead(302, { location: `/cdn/${commit}/${file}`, 'x-repo-commit': commit }).end();
    return;
  }
  const cdn = /^\/cdn\/([^/]+)\/(.+)$/.exec(path);
  const data = cdn ? state.commits.trees.get(cdn[1])?.get(cdn[2]) : state.files.get(path);
  if (!data) {
    response.writeHead(404).end('no such file');
    return;
  }
  const range = /^bytes=(\d+)-$/.exec(request.headers.range ?? '');
  const start = range ? Number(range[1]) : 0;
  if (start >= data.length && data.length > 0) {
    response.writeHead(416, { 'content-range': `bytes */${data.length}` }).end();
    return;
  }
  const body = data.subarray(start);
  const headers: Record<string, string | number> = { 'content-type': 'application/octet-stream', 'content-length': body.length, etag: `"${sha256(data).slice(0, 16)}"` };
  if (range) headers['content-range'] = `bytes ${start}-${data.length - 1}/${data.length}`;
  response.writeHead(range ? 206 : 200, headers);
  if (state.cutOnce.delete(path)) {
    // Half the body, then the connection is closed. A little later: a response closed early is destroyed with what
    // it still buffers, so the client is given the time to read the half.
    response.write(body.subarray(0, Math.floor(body.length / 2)), () => setTimeout(() => response.socket?.destroy(), 100));
    return;
  }
  response.end(body);
}
