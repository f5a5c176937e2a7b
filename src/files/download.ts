// A URL into the download cache: found there, or fetched — once per process however many ask, by one process at a
// time across processes (claim.ts) — from where the lock and the mirror say: the lock's pinned `source` if it has
// one, then the mirror's rewrite of that.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { cacheFileName, findCached } from './cache.ts';
import { withClaim } from './claim.ts';
import { type FetchFileOptions, type FetchedFile, fetchToFile } from './fetch-file.ts';
import type { LockEntry } from './lockfile.ts';
import { type FilesMirror, mirrored } from './mirror.ts';

export interface CacheFetchOptions extends FetchFileOptions {
  cacheDir: string;
  mirror?: FilesMirror;
}

export interface CachedFile {
  path: string;
  /** Set when this call fetched it (not when it was in the cache, or another process fetched it). */
  fetched?: FetchedFile;
}

/** Where a URL's file is fetched from: the lock's pinned source, or the URL; then through the mirror. */
export function fetchUrlOf(url: string, entry: LockEntry | undefined, mirror: FilesMirror | undefined): string {
  return mirrored(entry?.source ?? url, mirror);
}

/** One download per cache file at a time within this process. */
const inFlight = new Map<string, Promise<CachedFile>>();

/** The URL's cached file, fetched first when the cache has none (`refetch`: fetched even when it has one). */
export async function ensureCached(url: string, entry: LockEntry | undefined, options: CacheFetchOptions & { refetch?: boolean }): Promise<CachedFile> {
  if (!options.refetch) {
    const cached = await findCached(options.cacheDir, url);
    if (cached) return { path: cached };
  }
  const target = join(options.cacheDir, cacheFileName(url));
  let pending = inFlight.get(target);
  if (!pending) {
    pending = fetchIntoCache(url, target, entry, options).finally(() => inFlight.delete(target));
    inFlight.set(target, pending);
  }
  return pending;
}

async function fetchIntoCache(url: string, target: string, entry: LockEntry | undefined, options: CacheFetchOptions & { refetch?: boolean }): Promise<CachedFile> {
  await mkdir(options.cacheDir, { recursive: true });
  const from = fetchUrlOf(url, entry, options.mirror);
  // Holding the claim, look again: another process may have finished the file between the first look and the claim.
  const fetchUnlessCached = async () => (!options.refetch && (await findCached(options.cacheDir, url)) ? undefined : fetchToFile(from, target, options));
  for (;;) {
    const fetched = await withClaim(target, fetchUnlessCached, options.signal);
    if (fetched) return { path: target, fetched };
    // Another process held the claim: its file, if it got one; else this one tries.
    const cached = await findCached(options.cacheDir, url);
    if (cached) return { path: cached };
  }
}
