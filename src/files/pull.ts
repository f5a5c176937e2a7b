// Many files into the download cache ahead of a run (`deskbench files pull`, and the fetching of `files lock`):
// several at once, each resumed and retried as fetch-file.ts does, each checked against its lock entry, with one
// progress bar for all. A cached copy that is not the locked file is fetched again once; still not the locked file
// after that, it is reported as changed upstream. `checkCache` is the same check without the network.
import { stat } from 'node:fs/promises';
import { findCached } from './cache.ts';
import { type CacheFetchOptions, ensureCached } from './download.ts';
import { FileChangedError } from './errors.ts';
import type { LockEntry } from './lockfile.ts';
import { ProgressBar, type ProgressOutput } from './progress-bar.ts';
import { hashOf, verifyLocked } from './verify.ts';

export interface PullItem {
  url: string;
  /** Its lock entry: the file is checked against it (and fetched from its pinned source). */
  entry?: LockEntry;
}

export interface PullOptions extends Omit<CacheFetchOptions, 'onBytes' | 'onRetry'> {
  /** Downloads at once (default 8). */
  concurrency?: number;
  /** Fetch every file again, even those in the cache (files lock does, for the URLs it locks). */
  refetch?: boolean;
  /** Where the progress bar goes (a terminal gets a bar, anything else plain lines); none without. */
  progress?: ProgressOutput;
  /** Progress label (default "pull"). */
  label?: string;
  log?(message: string): void;
}

export interface PullResult {
  url: string;
  /** cached: found in the cache (and, locked, checked); fetched: downloaded now; changed: not the locked file; failed: not downloaded. */
  status: 'cached' | 'fetched' | 'changed' | 'failed';
  path?: string;
  sha256?: string;
  size?: number;
  contentType?: string;
  repoCommit?: string;
  /** Bytes an earlier, interrupted download had left, which this one continued. */
  resumedFrom?: number;
  error?: string;
}

export const DEFAULT_CONCURRENCY = 8;
/** More tries than a run's 3: a pull is where a flaky connection should be ridden out. */
const PULL_TRIES = 5;

export async function pullFiles(items: readonly PullItem[], options: PullOptions): Promise<PullResult[]> {
  const knownBytes = items.reduce((total, item) => total + (item.entry?.size ?? 0), 0);
  const bar = options.progress ? new ProgressBar(options.progress, options.label ?? 'pull', items.length, knownBytes) : undefined;
  const results = await inParallel(items, options.concurrency ?? DEFAULT_CONCURRENCY, async (item) => {
    const result = await pullOne(item, options, bar);
    bar?.fileDone(result.status === 'cached' ? (result.size ?? 0) : (result.resumedFrom ?? 0));
    return result;
  });
  bar?.finish();
  return results;
}

async function pullOne(item: PullItem, options: PullOptions, bar: ProgressBar | undefined): Promise<PullResult> {
  const { url, entry } = item;
  let sized = entry !== undefined;
  const fetchOptions = {
    ...options,
    tries: options.tries ?? PULL_TRIES,
    onBytes: (bytes: number, total?: number) => {
      if (!sized && total !== undefined) {
        sized = true;
        bar?.expect(total);
      }
      bar?.received(bytes);
    },
    onRetry: (attempt: number, reason: string, delayMs: number) => options.log?.(`${url}: try ${attempt} failed (${reason}); again in ${delayMs / 1000} s`),
  };
  try {
    let cached = await ensureCached(url, entry, { ...fetchOptions, refetch: options.refetch });
    if (entry && !cached.fetched && (await hashOf(cached.path)) !== entry.sha256) {
      options.log?.(`${url}: the cached copy is not the locked file; fetching it again`);
      cached = await ensureCached(url, entry, { ...fetchOptions, refetch: true });
    }
    if (entry) await verifyLocked(url, cached.path, entry, cached.fetched ? `downloaded now to ${cached.path}` : `the cached copy ${cached.path}`);
    const { size } = await stat(cached.path);
    return {
      url,
      status: cached.fetched ? 'fetched' : 'cached',
      path: cached.path,
      sha256: await hashOf(cached.path),
      size,
      contentType: cached.fetched?.contentType,
      repoCommit: cached.fetched?.repoCommit,
      resumedFrom: cached.fetched?.resumedFrom,
    };
  } catch (error) {
    if (options.signal?.aborted) throw error;
    return { url, status: error instanceof FileChangedError ? 'changed' : 'failed', error: (error as Error).message };
  }
}

export interface CacheCheck {
  url: string;
  /** ok: cached (and, locked, the locked file); missing: not in the cache; changed: cached but not the locked file. */
  status: 'ok' | 'missing' | 'changed';
  path?: string;
  error?: string;
}

/** Whether each file is in the cache and, when locked, the locked file; nothing is fetched. */
export function checkCache(items: readonly PullItem[], cacheDir: string, concurrency = DEFAULT_CONCURRENCY): Promise<CacheCheck[]> {
  return inParallel(items, concurrency, async ({ url, entry }): Promise<CacheCheck> => {
    const path = await findCached(cacheDir, url);
    if (!path) return { url, status: 'missing' };
    if (!entry) return { url, status: 'ok', path };
    const actual = await hashOf(path);
    if (actual === entry.sha256) return { url, status: 'ok', path };
    return { url, status: 'changed', path, error: new FileChangedError(url, entry.sha256, actual, `the cached copy ${path}`).message };
  });
}

/** `work` over the items, at most `limit` at a time; results in the items' order. */
async function inParallel<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}
