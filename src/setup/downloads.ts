// Turning a task's file URL into a local file on the host (OSWorld's SetupController downloads on the host, then
// uploads to the desktop). Order, first hit wins, and the network is only tried last:
//   1. a path without a scheme, or a `file:` URL → a file (relative ones against the task's folder) inside the task's
//      folder or the folder of the `files` option: nowhere else on the host;
//   2. the user's `files` option: a {url: path} map, or a folder searched by the URL's file name;
//   3. the download cache, a host folder reused across runs, keyed like OSWorld's: `<uuid5(URL)>_<name>`;
//   4. the network: 3 tries, 300 s each; the file is written under a temporary name, then renamed.
// Anything missing fails with a message naming the URL and how to supply the file.
import { createHash } from 'node:crypto';
import { createWriteStream, existsSync, statSync } from 'node:fs';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { containedPath, firstContaining } from '../task/contained-path.ts';
import { messageOf, sleep } from './parameters.ts';

export type FetchUrl = (url: string) => Promise<string>;

export interface FileResolverOptions {
  /** Host folder for downloaded files, reused across runs and tasks. */
  cacheDir: string;
  /** Offline sources: a folder searched by file name, or a map from URL to a local path (relative to the cwd). */
  files?: string | Record<string, string>;
  /** The task's folder: relative paths and relative `file:` URLs resolve against it. */
  taskDir: string;
  /** The task file, named in errors about its paths. */
  taskFile?: string;
  /** Attempts per download (OSWorld: 3). */
  tries?: number;
  /** Per-attempt timeout (OSWorld: 300 s). */
  timeoutMs?: number;
  signal?: AbortSignal;
  log?: (message: string) => void;
}

/** `fetchUrl(url) → local path`, as SetupContext and EvalEnv expect it. */
export function createFileResolver(options: FileResolverOptions): FetchUrl {
  const tries = options.tries ?? 3;
  const timeoutMs = options.timeoutMs ?? 300_000;
  const log = options.log ?? (() => {});
  return async (url: string) => {
    if (typeof url !== 'string' || !url.trim()) throw new Error(`expected a URL or a path, got ${JSON.stringify(url)}`);
    const local = localPath(url, options);
    if (local !== undefined) {
      if (!isFile(local)) throw new Error(`${url}: no such file (${local})`);
      return local;
    }
    const supplied = await suppliedFile(url, options.files);
    if (supplied) return supplied;
    return download(url, { cacheDir: options.cacheDir, tries, timeoutMs, signal: options.signal, log, files: options.files });
  };
}

// --- 1. local paths and file: URLs ------------------------------------------------------------------------------------

/**
 * A local path for a scheme-less string or a `file:` URL; undefined for a remote URL. It must be inside the task's
 * folder or the `files` option's folder: a task may not have deskbench upload other host files (`file:///etc/passwd`)
 * into the desktop.
 */
function localPath(url: string, { taskDir, taskFile, files }: FileResolverOptions): string | undefined {
  let path: string;
  if (url.startsWith('file://')) path = fileURLToPath(url);
  else if (url.startsWith('file:')) path = decodeURIComponent(url.slice('file:'.length));
  else if (/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(url)) return undefined;
  else path = url;
  const origin = { file: taskFile, field: path === url ? 'the local path' : `the file URL ${JSON.stringify(url)}, path` };
  const inFiles = typeof files === 'string' ? firstContaining([files], resolve(taskDir, path)) : undefined;
  return inFiles ?? containedPath(taskDir, path, origin);
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

// --- 2. user-supplied files -------------------------------------------------------------------------------------------

async function suppliedFile(url: string, files: FileResolverOptions['files']): Promise<string | undefined> {
  if (!files) return undefined;
  if (typeof files === 'object') {
    const mapped = files[url];
    if (mapped === undefined) return undefined;
    const path = resolve(mapped);
    if (!isFile(path)) throw new Error(`the files option maps ${url} to ${path}, which is not a file`);
    return path;
  }
  return findInFolder(resolve(files), url);
}

/** Folder → file name → paths, built once per folder per process. */
const folderIndexes = new Map<string, Promise<Map<string, string[]>>>();

async function indexFolder(folder: string): Promise<Map<string, string[]>> {
  const index = new Map<string, string[]>();
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch((error: unknown) => {
    throw new Error(`the files option names the folder ${folder}, which cannot be read: ${messageOf(error)}`);
  });
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    index.set(entry.name, [...(index.get(entry.name) ?? []), path]);
  }
  return index;
}

/**
 * Looks for the URL's file in a folder: by its file name (last path segment), by a Google-Drive-style `id` query
 * parameter, or by OSWorld's cache name `<uuid5(URL)>_…` (so an OSWorld cache folder works as is). When several files
 * share the name, the one whose folders match the URL's path best wins; a tie is an error.
 */
async function findInFolder(folder: string, url: string): Promise<string | undefined> {
  let indexed = folderIndexes.get(folder);
  if (!indexed) {
    indexed = indexFolder(folder);
    folderIndexes.set(folder, indexed);
    indexed.catch(() => folderIndexes.delete(folder));
  }
  const index = await indexed;
  const candidates = new Set<string>();
  for (const name of urlFileNames(url)) for (const path of index.get(name) ?? []) candidates.add(path);
  const prefix = `${uuid5Url(url)}_`;
  for (const [name, paths] of index) if (name.startsWith(prefix)) for (const path of paths) candidates.add(path);
  const found = [...candidates].filter(isFile);
  if (found.length <= 1) return found[0];
  const segments = urlSegments(url);
  const scored = found.map((path) => ({ path, score: sharedTail(relative(folder, path).split(sep), segments) }));
  scored.sort((a, b) => b.score - a.score);
  if (scored[0].score > scored[1].score) return scored[0].path;
  throw new Error(
    `several files in ${folder} could be ${url}: ${scored.map((s) => s.path).join(', ')}; ` +
      `map the URL to one of them with the files option ({ "${url}": "<path>" })`,
  );
}

function urlSegments(url: string): string[] {
  try {
    return new URL(url).pathname.split('/').filter(Boolean).map(safeDecode);
  } catch {
    return [];
  }
}

function urlFileNames(url: string): string[] {
  const names = [urlSegments(url).at(-1)];
  try {
    names.push(new URL(url).searchParams.get('id') ?? undefined);
  } catch {
    // not a URL the WHATWG parser accepts: only the cache name can match
  }
  return names.filter((name): name is string => Boolean(name));
}

/** How many trailing path segments two paths share. */
function sharedTail(a: string[], b: string[]): number {
  let n = 0;
  while (n < a.length && n < b.length && a[a.length - 1 - n] === b[b.length - 1 - n]) n++;
  return n;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

// --- 3 and 4. the download cache and the network ---------------------------------------------------------------------

const NAMESPACE_URL = '6ba7b8119dad11d180b400c04fd430c8';

/** Python's `uuid.uuid5(uuid.NAMESPACE_URL, url)`, the key OSWorld names cached downloads with. */
export function uuid5Url(url: string): string {
  const hash = createHash('sha1').update(Buffer.from(NAMESPACE_URL, 'hex')).update(url, 'utf8').digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The cache file name of a URL: `<uuid5>_<file name from the URL>`. */
export function cacheFileName(url: string): string {
  const name = (urlSegments(url).at(-1) ?? '').replace(/[^\w.-]+/g, '_').slice(-100) || 'download';
  return `${uuid5Url(url)}_${name}`;
}

/** One download per URL at a time within this process. */
const inFlight = new Map<string, Promise<string>>();

interface DownloadOptions {
  cacheDir: string;
  tries: number;
  timeoutMs: number;
  signal?: AbortSignal;
  log: (message: string) => void;
  files: FileResolverOptions['files'];
}

async function download(url: string, options: DownloadOptions): Promise<string> {
  const target = join(options.cacheDir, cacheFileName(url));
  if (isFile(target)) return target;
  const osworldNamed = await cachedUnderOsworldName(options.cacheDir, url);
  if (osworldNamed) return osworldNamed;
  const key = `${target}\n${url}`;
  let pending = inFlight.get(key);
  if (!pending) {
    pending = fetchToFile(url, target, options).finally(() => inFlight.delete(key));
    inFlight.set(key, pending);
  }
  return pending;
}

/** A file OSWorld's own cache would hold: `<uuid5>_<basename of the desktop path>`. */
async function cachedUnderOsworldName(cacheDir: string, url: string): Promise<string | undefined> {
  if (!existsSync(cacheDir)) return undefined;
  const prefix = `${uuid5Url(url)}_`;
  const names = await readdir(cacheDir).catch(() => [] as string[]);
  const name = names.find((candidate) => candidate.startsWith(prefix) && !candidate.includes('.part-'));
  return name && isFile(join(cacheDir, name)) ? join(cacheDir, name) : undefined;
}

async function fetchToFile(url: string, target: string, options: DownloadOptions): Promise<string> {
  await mkdir(options.cacheDir, { recursive: true });
  let lastError = '';
  for (let attempt = 1; attempt <= options.tries; attempt++) {
    const partial = `${target}.part-${process.pid}-${Math.random().toString(36).slice(2)}`;
    try {
      const timeout = AbortSignal.timeout(options.timeoutMs);
      const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
      const response = await fetch(url, { signal, redirect: 'follow' });
      if (!response.ok || !response.body) throw new Error(`HTTP ${response.status} ${response.statusText}`.trim());
      await pipeline(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream), createWriteStream(partial));
      await rename(partial, target);
      options.log(`downloaded ${url} → ${target}`);
      return target;
    } catch (error) {
      await rm(partial, { force: true });
      if (options.signal?.aborted) throw error;
      lastError = describeFetchError(error);
      options.log(`download of ${url} failed (try ${attempt}/${options.tries}): ${lastError}`);
      if (attempt < options.tries) await sleep(1000 * attempt, options.signal);
    }
  }
  const name = urlFileNames(url)[0] ?? 'the file';
  const hint =
    typeof options.files === 'string'
      ? `It is not in the folder given by the files option (${options.files}) either: put "${name}" there`
      : `To run without the network, supply it with the files option: a folder containing "${name}", ` +
        `or a map { "${url}": "/path/to/${name}" }`;
  throw new Error(`Could not download ${url} (${options.tries} tries; last error: ${lastError}). ${hint}.`);
}

/** fetch's "fetch failed" hides the reason in `cause` (ECONNREFUSED, ENOTFOUND, …). */
function describeFetchError(error: unknown): string {
  const message = messageOf(error);
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  return cause ? `${message} (${cause.code ?? cause.message ?? String(cause)})` : message;
}

