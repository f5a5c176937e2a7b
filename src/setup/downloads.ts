// Turning a task's file URL into a local file on the host (OSWorld's SetupController downloads on the host, then
// uploads to the desktop). Order, first hit wins, and the network is only tried last:
//   1. a path without a scheme, or a `file:` URL → a file (relative ones against the task's folder) inside the task's
//      folder or the folder of the `files` option: nowhere else on the host;
//   2. the user's `files` option: a {url: path} map, or a folder searched by the URL's file name;
//   3. the download cache, a host folder reused across runs, keyed like OSWorld's: `<uuid5(URL)>_<name>`;
//   4. the network (src/files/download.ts): 3 tries with back-off, resumed where a try stopped, from the lock's pinned
//      source and through the mirror when there are; the file is written under a temporary name, then renamed.
// Anything missing fails with a message naming the URL and how to supply the file. With a lock
// (deskbench-files.lock.json), a file for a locked URL, wherever it came from, must have the locked sha256.
import { readdir } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isFile, urlSegments, uuid5Url } from '../files/cache.ts';
import { ensureCached, fetchUrlOf } from '../files/download.ts';
import { DownloadError } from '../files/errors.ts';
import { shownUrl } from '../files/fetch-file.ts';
import type { FilesLock, LockEntry } from '../files/lockfile.ts';
import type { FilesMirror } from '../files/mirror.ts';
import { verifyLocked } from '../files/verify.ts';
import { containedPath, firstContaining } from '../task/contained-path.ts';
import { messageOf } from './parameters.ts';
import { StepFailedError, StepParameterError } from './errors.ts';
import { OptionsError } from '../errors.ts';

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
  /** The wait before the first retry, doubled before each next one (default: fetchFile's, 1 s). */
  backoffMs?: number;
  /** An attempt fails after this long without a byte (OSWorld: 300 s per download). */
  timeoutMs?: number;
  /** The files lock: a file for a locked URL must have the locked sha256 (FileChangedError otherwise). */
  lock?: FilesLock;
  /** URL prefixes rewritten before fetching (the filesMirror option with DESKBENCH_FILES_MIRROR over it). */
  mirror?: FilesMirror;
  signal?: AbortSignal;
  log?: (message: string) => void;
}

/** `fetchUrl(url) → local path`, as SetupContext and EvalEnv expect it. */
export function createFileResolver(options: FileResolverOptions): FetchUrl {
  const tries = options.tries ?? 3;
  const timeoutMs = options.timeoutMs ?? 300_000;
  const log = options.log ?? (() => {});
  return async (url: string) => {
    if (typeof url !== 'string' || !url.trim()) throw new StepParameterError(`expected a URL or a path, got ${JSON.stringify(url)}`);
    const local = localPath(url, options);
    if (local !== undefined) {
      if (!isFile(local)) throw new StepFailedError(`${url}: no such file (${local})`);
      return local;
    }
    const entry = options.lock?.files[url];
    const supplied = await suppliedFile(url, options.files);
    if (supplied) {
      if (entry) await verifyLocked(url, supplied, entry, `the file the files option supplies, ${supplied}`);
      return supplied;
    }
    const { path, where } = await download(url, entry, { cacheDir: options.cacheDir, tries, backoffMs: options.backoffMs, timeoutMs, signal: options.signal, log, files: options.files, mirror: options.mirror });
    if (entry) await verifyLocked(url, path, entry, where);
    return path;
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

// --- 2. user-supplied files -------------------------------------------------------------------------------------------

async function suppliedFile(url: string, files: FileResolverOptions['files']): Promise<string | undefined> {
  if (!files) return undefined;
  if (typeof files === 'object') {
    const mapped = files[url];
    if (mapped === undefined) return undefined;
    const path = resolve(mapped);
    if (!isFile(path)) throw new OptionsError(`the files option maps ${url} to ${path}, which is not a file`);
    return path;
  }
  return findInFolder(resolve(files), url);
}

/** Folder → file name → paths, built once per folder per process. */
const folderIndexes = new Map<string, Promise<Map<string, string[]>>>();

async function indexFolder(folder: string): Promise<Map<string, string[]>> {
  const index = new Map<string, string[]>();
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch((error: unknown) => {
    throw new OptionsError(`the files option names the folder ${folder}, which cannot be read: ${messageOf(error)}`);
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
  throw new OptionsError(
    `several files in ${folder} could be ${url}: ${scored.map((s) => s.path).join(', ')}; ` +
      `map the URL to one of them with the files option ({ "${url}": "<path>" })`,
  );
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

// --- 3 and 4. the download cache and the network ---------------------------------------------------------------------

interface DownloadOptions {
  cacheDir: string;
  tries: number;
  backoffMs?: number;
  timeoutMs: number;
  signal?: AbortSignal;
  log: (message: string) => void;
  files: FileResolverOptions['files'];
  mirror?: FilesMirror;
}

/** The cached file, and which copy it is (for a FileChangedError's message). */
async function download(url: string, entry: LockEntry | undefined, options: DownloadOptions): Promise<{ path: string; where: string }> {
  const from = shownUrl(fetchUrlOf(url, entry, options.mirror));
  try {
    const cached = await ensureCached(url, entry, {
      cacheDir: options.cacheDir,
      mirror: options.mirror,
      tries: options.tries,
      backoffMs: options.backoffMs,
      idleTimeoutMs: options.timeoutMs,
      signal: options.signal,
      onRetry: (attempt, reason) => options.log(`download of ${from} failed (try ${attempt}/${options.tries}): ${reason}`),
    });
    if (!cached.fetched) return { path: cached.path, where: `the cached copy ${cached.path}` };
    options.log(`downloaded ${from} → ${cached.path}`);
    return { path: cached.path, where: `downloaded now from ${from} to ${cached.path}` };
  } catch (error) {
    if (!(error instanceof DownloadError)) throw error;
    options.log(`download of ${from} failed: ${error.message}`);
    const name = urlFileNames(url)[0] ?? 'the file';
    const hint =
      typeof options.files === 'string'
        ? `It is not in the folder given by the files option (${options.files}) either: put "${name}" there`
        : `To run without the network, supply it with the files option: a folder containing "${name}", ` +
          `or a map { "${url}": "/path/to/${name}" }, or a pack of the locked files (deskbench files unpack)`;
    throw new DownloadError(`${error.message}. ${hint}.`, { cause: error.cause, status: error.status });
  }
}
