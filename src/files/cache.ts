// The download cache: a host folder of downloaded task files, reused across runs, keyed like OSWorld's cache
// (`<uuid5(URL)>_<file name>`), so an OSWorld cache folder works as one and the other way round. A file being
// downloaded sits beside its final name as `<name>.partial` (kept after a failure, to be resumed) until it is complete.
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';

const NAMESPACE_URL = '6ba7b8119dad11d180b400c04fd430c8';

/** Python's `uuid.uuid5(uuid.NAMESPACE_URL, url)`, the key OSWorld names cached downloads with. */
export function uuid5Url(url: string): string {
  const hash = createHash('sha1').update(Buffer.from(NAMESPACE_URL, 'hex')).update(url, 'utf8').digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The URL's path segments, decoded where they can be (`a%20b` → `a b`). */
export function urlSegments(url: string): string[] {
  try {
    return new URL(url).pathname.split('/').filter(Boolean).map(safeDecode);
  } catch {
    return [];
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The cache file name of a URL: `<uuid5>_<file name from the URL>`. */
export function cacheFileName(url: string): string {
  const name = (urlSegments(url).at(-1) ?? '').replace(/[^\w.-]+/g, '_').slice(-100) || 'download';
  return `${uuid5Url(url)}_${name}`;
}

/** Names of files still being written (or left half-written, to be resumed): never a cached file. */
export const PARTIAL_SUFFIX = '.partial';
const isInProgress = (name: string) => name.includes(PARTIAL_SUFFIX) || name.includes('.part-');

/**
 * The cached copy of a URL, if any: deskbench's own name, or a file OSWorld's cache would hold (`<uuid5>_<basename of
 * the desktop path>`, which may differ from the URL's file name).
 */
export async function findCached(cacheDir: string, url: string): Promise<string | undefined> {
  const own = join(cacheDir, cacheFileName(url));
  if (isFile(own)) return own;
  if (!existsSync(cacheDir)) return undefined;
  const prefix = `${uuid5Url(url)}_`;
  const names = await readdir(cacheDir).catch(() => [] as string[]);
  const name = names.find((candidate) => candidate.startsWith(prefix) && !isInProgress(candidate));
  return name && isFile(join(cacheDir, name)) ? join(cacheDir, name) : undefined;
}

export function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The sha256 of a file, hex. */
export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}
