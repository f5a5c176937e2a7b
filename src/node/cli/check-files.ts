// `deskbench check`'s view of the files the tasks download: per task, how many of its URLs the lock has and how many
// the download cache holds. Presence only (no hashing, no network): `deskbench files pull --check` checks the hashes.
import { readdirSync } from 'node:fs';
import { relative } from 'node:path';
import { PARTIAL_SUFFIX, uuid5Url } from '../../files/cache.ts';
import { type FilesLock, readLock } from '../../files/lockfile.ts';
import { taskUrls } from '../../files/task-urls.ts';
import type { Task } from '../../task/types.ts';
import type { FilesSettings } from './check.ts';

interface TaskFiles {
  file: string;
  id: string;
  domain: string;
  urls: number;
  locked: number;
  cached: number;
  /** The URLs the lock lacks, then those the cache lacks. */
  unlocked?: string[];
  uncached?: string[];
}

export interface FilesStatus {
  lock: string;
  /** Set when there is a lock file but it cannot be read. */
  lockError?: string;
  lockFound: boolean;
  cacheDir: string;
  /** Tasks that download files, those not ready (something unlocked or uncached) first. */
  tasks: TaskFiles[];
}

export function filesStatus(tasks: readonly Task[], settings: FilesSettings): FilesStatus {
  let lock: FilesLock | undefined;
  let lockError: string | undefined;
  try {
    lock = readLock(settings.lock);
  } catch (error) {
    lockError = (error as Error).message;
  }
  const cached = cachedKeys(settings.cacheDir);
  const rows: TaskFiles[] = [];
  for (const task of tasks) {
    const urls = taskUrls(task);
    if (!urls.length) continue;
    const unlocked = urls.filter((url) => !lock?.files[url]);
    const uncached = urls.filter((url) => !cached.has(uuid5Url(url)));
    rows.push({
      file: task.file,
      id: task.id,
      domain: task.domain,
      urls: urls.length,
      locked: urls.length - unlocked.length,
      cached: urls.length - uncached.length,
      ...(unlocked.length ? { unlocked } : {}),
      ...(uncached.length ? { uncached } : {}),
    });
  }
  const ready = (row: TaskFiles) => row.locked === row.urls && row.cached === row.urls;
  rows.sort((a, b) => Number(ready(a)) - Number(ready(b)) || a.domain.localeCompare(b.domain) || a.id.localeCompare(b.id));
  return { lock: settings.lock, lockFound: lock !== undefined, ...(lockError ? { lockError } : {}), cacheDir: settings.cacheDir, tasks: rows };
}

/** The uuid5 keys of the files in the cache (`<uuid5>_<name>`, half-written ones left out). */
function cachedKeys(cacheDir: string): Set<string> {
  let names: string[] = [];
  try {
    names = readdirSync(cacheDir);
  } catch {
    // no cache yet
  }
  return new Set(names.filter((name) => !name.includes(PARTIAL_SUFFIX) && name[36] === '_').map((name) => name.slice(0, 36)));
}

export function formatFilesStatus(status: FilesStatus, cwd = process.cwd()): string[] {
  const shown = (path: string) => (relative(cwd, path).startsWith('..') ? path : relative(cwd, path));
  const urls = status.tasks.reduce((total, row) => total + row.urls, 0);
  const ready = status.tasks.filter((row) => row.locked === row.urls && row.cached === row.urls).length;
  const lock = status.lockError ? `UNREADABLE: ${status.lockError}` : status.lockFound ? shown(status.lock) : `none (${shown(status.lock)}: deskbench files lock writes it)`;
  const lines = [
    '',
    `Files the tasks download (${status.tasks.length} tasks, ${urls} URLs; ${ready} tasks locked and cached):`,
    `  lock ${lock}; cache ${shown(status.cacheDir)}`,
  ];
  for (const row of status.tasks) {
    const ok = row.locked === row.urls && row.cached === row.urls;
    lines.push(`  ${ok ? 'ok     ' : 'MISSING'} ${`${row.domain}/${row.id}`.padEnd(60)} ${row.urls} files: ${row.locked} locked, ${row.cached} cached`);
  }
  return lines;
}
