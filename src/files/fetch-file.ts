// Fetching one URL to a file: Node's http/https (not fetch), so that
// - HTTP_PROXY / HTTPS_PROXY / NO_PROXY are honoured without any flag: the agents are made with `proxyEnv` (Node ≥ 24.5
//   and 22.21; Node's fetch ignores these variables unless NODE_USE_ENV_PROXY=1 was set when Node started);
// - every redirect hop is seen: Hugging Face names the dataset commit (`X-Repo-Commit`) on the first answer, before it
//   redirects to its CDN (files lock --pin);
// - a body cut short is resumed where it stopped (HTTP Range), within this call and by a later one (the `.partial`
//   file stays after a failure); retries back off exponentially and honour Retry-After.
// Connections are kept alive and shared, so many small files cost one TCP handshake per parallel download.
import { open, rename, rm, stat, truncate } from 'node:fs/promises';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { setTimeout as delay } from 'node:timers/promises';
import { PARTIAL_SUFFIX } from './cache.ts';
import { DownloadError } from './errors.ts';
import { DeskbenchError, type ErrorCode } from '../errors.ts';

export interface FetchFileOptions {
  /** Attempts in all (default 3, OSWorld's). */
  tries?: number;
  /** The first retry's delay; each next one doubles (default 1 s). */
  backoffMs?: number;
  /** An attempt fails after this long without a byte (default 300 s, OSWorld's per-download timeout). */
  idleTimeoutMs?: number;
  signal?: AbortSignal;
  /** Bytes as they arrive; `total` is the file's size once an answer names it. */
  onBytes?(bytes: number, total?: number): void;
  /** Before each retry: the attempt that failed, why, and the wait. */
  onRetry?(attempt: number, reason: string, delayMs: number): void;
}

export interface FetchedFile {
  bytes: number;
  contentType?: string;
  /** Hugging Face's `X-Repo-Commit` from any answer on the way (the commit `resolve/main` stood for). */
  repoCommit?: string;
  /** Bytes taken from a `.partial` file an earlier attempt (or run) left. */
  resumedFrom: number;
}

const MAX_REDIRECTS = 10;
const MAX_BACKOFF_MS = 30_000;

let agents: { http: http.Agent; https: https.Agent } | undefined;

/** The shared keep-alive agents, honouring the proxy variables of the environment (read once, on first use). */
function agentFor(protocol: string): http.Agent {
  agents ??= {
    http: new http.Agent({ keepAlive: true, proxyEnv: process.env } as http.AgentOptions),
    https: new https.Agent({ keepAlive: true, proxyEnv: process.env } as https.AgentOptions),
  };
  return protocol === 'https:' ? agents.https : agents.http;
}

/** Downloads `url` to `target` (written as `<target>.partial`, renamed when complete). */
export async function fetchToFile(url: string, target: string, options: FetchFileOptions = {}): Promise<FetchedFile> {
  const tries = options.tries ?? 3;
  const backoffMs = options.backoffMs ?? 1000;
  const partial = `${target}${PARTIAL_SUFFIX}`;
  const resumedFrom = await sizeOf(partial);
  let validator: string | undefined;
  for (let attempt = 1; ; attempt++) {
    try {
      const fetched = await fetchOnce(url, partial, { ...options, validator });
      await rename(partial, target);
      return { ...fetched, resumedFrom };
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason ?? error;
      const failure = error instanceof AttemptError ? error : new AttemptError(describeNetworkError(error), { retry: true });
      validator = failure.validator ?? validator;
      if (!failure.retry || attempt >= tries) {
        if (!failure.retry) await rm(partial, { force: true });
        const tried = attempt === 1 ? '1 try' : `${attempt} tries`;
        throw new DownloadError(`Could not download ${shownUrl(url)} (${tried}; last error: ${failure.message})`, { cause: error, status: failure.status });
      }
      const wait = Math.min(MAX_BACKOFF_MS, failure.retryAfterMs ?? backoffMs * 2 ** (attempt - 1));
      options.onRetry?.(attempt, failure.message, wait);
      await delay(wait, undefined, { signal: options.signal });
    }
  }
}

/** Why one attempt failed, and whether another may succeed. */
class AttemptError extends DeskbenchError {
  override readonly code: ErrorCode = 'DESKBENCH_DOWNLOAD_ATTEMPT';
  readonly retry: boolean;
  readonly status?: number;
  readonly retryAfterMs?: number;
  /** The ETag (or Last-Modified) of the answer, so a resumed request asks for the same file (If-Range). */
  readonly validator?: string;
  constructor(message: string, fields: { retry: boolean; status?: number; retryAfterMs?: number; validator?: string }) {
    super(message);
    Object.assign(this, fields);
    this.retry = fields.retry;
  }
}

async function fetchOnce(url: string, partial: string, options: FetchFileOptions & { validator?: string }): Promise<Omit<FetchedFile, 'resumedFrom'>> {
  let offset = await sizeOf(partial);
  let current = url;
  let repoCommit: string | undefined;
  for (let hop = 0; ; hop++) {
    const range: Record<string, string> = offset > 0 ? { range: `bytes=${offset}-`, ...(options.validator ? { 'if-range': options.validator } : {}) } : {};
    const response = await request(current, range, options);
    repoCommit ??= header(response, 'x-repo-commit');
    const status = response.statusCode ?? 0;
    const location = header(response, 'location');
    if (status >= 300 && status < 400 && location) {
      response.resume();
      if (hop >= MAX_REDIRECTS) throw new AttemptError(`more than ${MAX_REDIRECTS} redirects`, { retry: false, status });
      current = new URL(location, current).href;
      continue;
    }
    if (status === 416 && offset > 0) {
      // The partial file is not a prefix of what the server has now: start over.
      response.resume();
      await truncate(partial, 0);
      offset = 0;
      hop--;
      continue;
    }
    const validator = header(response, 'etag') ?? header(response, 'last-modified');
    if (status < 200 || status >= 300) {
      response.resume();
      const retry = status >= 500 || status === 408 || status === 429;
      const retryAfter = Number(header(response, 'retry-after'));
      throw new AttemptError(`HTTP ${status} ${response.statusMessage ?? ''}`.trim(), { retry, status, retryAfterMs: retryAfter > 0 ? retryAfter * 1000 : undefined });
    }
    // 206 continues the partial file at `offset`; any other 2xx is the whole file again.
    const resumed = status === 206 && offset > 0 && header(response, 'content-range')?.startsWith(`bytes ${offset}-`);
    if (!resumed) offset = 0;
    const length = Number(header(response, 'content-length'));
    const expected = Number.isFinite(length) && header(response, 'content-length') !== undefined ? offset + length : undefined;
    let received = offset;
    if (offset > 0) options.onBytes?.(0, expected);
    // Each chunk is on disk before the next is read: whatever arrived before a failure is there to resume from.
    const file = await open(partial, offset > 0 ? 'a' : 'w');
    try {
      for await (const chunk of response as AsyncIterable<Buffer>) {
        await file.write(chunk);
        received += chunk.length;
        options.onBytes?.(chunk.length, expected);
      }
    } catch (error) {
      throw new AttemptError(`${describeNetworkError(error)} after ${received} of ${expected ?? '?'} bytes`, { retry: true, validator });
    } finally {
      await file.close();
    }
    if (expected !== undefined && received < expected) {
      throw new AttemptError(`the connection closed after ${received} of ${expected} bytes`, { retry: true, validator });
    }
    return { bytes: received, contentType: header(response, 'content-type'), repoCommit };
  }
}

/** One GET; resolves with the answer's head, its body still to read. */
function request(url: string, headers: Record<string, string>, options: FetchFileOptions): Promise<IncomingMessage> {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return Promise.reject(new AttemptError(`cannot fetch ${parsed.protocol} URLs (only http and https)`, { retry: false }));
  }
  const client = parsed.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.get(parsed, { agent: agentFor(parsed.protocol), headers: { 'user-agent': 'deskbench', ...headers }, signal: options.signal }, resolve);
    const idleMs = options.idleTimeoutMs ?? 300_000;
    req.setTimeout(idleMs, () => req.destroy(new Error(`no data for ${idleMs / 1000} s`)));
    req.on('error', reject);
  });
}

/** The URL as messages show it: a password in it (a mirror's `http://user:password@…`) masked. */
export function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.password) return url;
    parsed.password = '***';
    return parsed.href;
  } catch {
    return url;
  }
}

function header(response: IncomingMessage, name: string): string | undefined {
  const value = response.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

async function sizeOf(path: string): Promise<number> {
  return stat(path).then((s) => s.size, () => 0);
}

/** A network error's reason: the message and its code (ECONNREFUSED, ENOTFOUND, ECONNRESET…). */
function describeNetworkError(error: unknown): string {
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  return code && !message.includes(code) ? `${message} (${code})` : message;
}
