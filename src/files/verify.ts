// A file checked against its lock entry: its sha256 must be the locked one. Hashes are kept per file, size and
// modification time, so a file many tasks use is read once per process.
import { stat } from 'node:fs/promises';
import { sha256File } from './cache.ts';
import { FileChangedError } from './errors.ts';
import type { LockEntry } from './lockfile.ts';

const hashes = new Map<string, { key: string; sha256: Promise<string> }>();

/** The file's sha256, from memory when the file has not changed since it was last hashed. */
export async function hashOf(path: string): Promise<string> {
  const { size, mtimeMs } = await stat(path);
  const key = `${size}:${mtimeMs}`;
  const known = hashes.get(path);
  if (known?.key === key) return known.sha256;
  const sha256 = sha256File(path);
  hashes.set(path, { key, sha256 });
  sha256.catch(() => hashes.delete(path));
  return sha256;
}

/**
 * Throws FileChangedError when the file at `path` is not the one locked for `url`. `where` says which copy was
 * checked ("downloaded now", "the cached copy …"), for the message.
 */
export async function verifyLocked(url: string, path: string, entry: LockEntry, where: string): Promise<void> {
  const actual = await hashOf(path);
  if (actual !== entry.sha256) throw new FileChangedError(url, entry.sha256, actual, where);
}
