// `deskbench-files.lock.json`: what each file the tasks download was when it was locked — its sha256, size and
// content type, the tasks that use it, the date — committed by the user like a package lock. Runs, `files pull` and
// `files unpack` check files against it.
import { existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import { DeskbenchError, type ErrorCode } from '../errors.ts';

export const LOCKFILE_NAME = 'deskbench-files.lock.json';

const entrySchema = z
  .object({
    sha256: z.string().regex(/^[0-9a-f]{64}$/, 'a sha256 in lowercase hex (64 characters)'),
    size: z.number().int().nonnegative(),
    contentType: z.string().optional(),
    /** Where the file is fetched from when not the URL itself: the URL pinned to a dataset commit (files lock --pin). */
    source: z.string().optional(),
    /** The dataset commit the server named for the file (Hugging Face's X-Repo-Commit). */
    repoCommit: z.string().optional(),
    /** Ids of the tasks that use the URL. */
    tasks: z.array(z.string()),
    /** When the file was fetched for the lock (ISO date). */
    lockedAt: z.string(),
  })
  .strict();

const lockSchema = z
  .object({
    lockfileVersion: z.literal(1),
    /** URL (as the tasks write it) → what it was. */
    files: z.record(z.string(), entrySchema),
  })
  .strict();

export type LockEntry = z.infer<typeof entrySchema>;
export type FilesLock = z.infer<typeof lockSchema>;

/** A lock file that cannot be read or is not a lock: the message names the file and the field. */
class LockfileError extends DeskbenchError {
  override readonly code: ErrorCode = 'DESKBENCH_LOCKFILE';
}

export function emptyLock(): FilesLock {
  return { lockfileVersion: 1, files: {} };
}

/** The lock at `path`, or undefined when there is none. */
export function readLock(path: string): FilesLock | undefined {
  if (!existsSync(path)) return undefined;
  return parseLock(readFileSync(path, 'utf8'), path);
}

export function parseLock(text: string, path: string): FilesLock {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new LockfileError(`${path}: not valid JSON (${(error as Error).message})`);
  }
  const parsed = lockSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new LockfileError(`${path}: at ${issue.path.join('.') || '(top level)'}: ${issue.message}`);
  }
  return parsed.data;
}

/** The lock as written: URLs sorted, so that a change shows as a small diff. */
export function formatLock(lock: FilesLock): string {
  const files = Object.fromEntries(Object.keys(lock.files).sort().map((url) => [url, { ...lock.files[url], tasks: [...new Set(lock.files[url].tasks)].sort() }]));
  return `${JSON.stringify({ lockfileVersion: 1, files }, null, 2)}\n`;
}

/** Written whole or not at all (a temporary file, then renamed). */
export function writeLock(path: string, lock: FilesLock): void {
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, formatLock(lock));
  renameSync(temp, path);
}

/** Cached per path and modification time: every task of a run asks. */
const loaded = new Map<string, { mtimeMs: number; lock: FilesLock | undefined }>();

/** readLock, read again only when the file changed; undefined without a path or a file. */
export function lockAt(path: string | undefined): FilesLock | undefined {
  if (!path) return undefined;
  let mtimeMs: number;
  try {
    mtimeMs = statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
  const known = loaded.get(path);
  if (known && known.mtimeMs === mtimeMs) return known.lock;
  const lock = readLock(path);
  loaded.set(path, { mtimeMs, lock });
  return lock;
}
