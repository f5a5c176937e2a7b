// `deskbench files lock`: every URL the tasks would fetch, fetched once into the cache and recorded in the lock. URLs
// the lock already has keep their entry (a lock does not move by itself; `update` fetches them again). With `pin`, a
// URL that names a branch (`…/resolve/main/…`) gets a `source` naming the dataset commit the server said the file was
// taken from (Hugging Face's X-Repo-Commit), and runs fetch that instead.
import type { Task } from '../task/types.ts';
import { emptyLock, type FilesLock, type LockEntry } from './lockfile.ts';
import { type PullOptions, type PullResult, pullFiles } from './pull.ts';
import { taskUrls } from './task-urls.ts';

export interface LockOptions extends Omit<PullOptions, 'refetch' | 'label'> {
  pin?: boolean;
  /** Fetch and record again the URLs the lock already has. */
  update?: boolean;
  /** Drop the entries of URLs no selected task uses (else they stay: the selection may be a part of the tasks). */
  prune?: boolean;
  now?: Date;
}

export interface LockSummary {
  lock: FilesLock;
  /** The URLs fetched now, with how each went. */
  fetched: PullResult[];
  /** URLs whose entry was kept as it was. */
  kept: number;
  /** Entries dropped (prune). */
  pruned: string[];
  /** URLs fetched with --pin whose answers named no commit: left unpinned. */
  unpinned: string[];
}

/** URL → ids of the tasks that fetch it, in the tasks' order. */
function urlsOfTasks(tasks: readonly Task[]): Map<string, string[]> {
  const users = new Map<string, string[]>();
  for (const task of tasks) for (const url of taskUrls(task)) users.set(url, [...(users.get(url) ?? []), task.id]);
  return users;
}

export async function lockTaskFiles(tasks: readonly Task[], existing: FilesLock | undefined, options: LockOptions): Promise<LockSummary> {
  const users = urlsOfTasks(tasks);
  const previous = existing ?? emptyLock();
  const files: Record<string, LockEntry> = {};
  for (const [url, entry] of Object.entries(previous.files)) if (!options.prune || users.has(url)) files[url] = entry;
  const pruned = Object.keys(previous.files).filter((url) => !(url in files));
  const toFetch = [...users.keys()].filter((url) => options.update || !previous.files[url]);
  for (const url of users.keys()) if (files[url]) files[url] = { ...files[url], tasks: users.get(url) ?? [] };
  const fetched = await pullFiles(
    toFetch.map((url) => ({ url })),
    { ...options, refetch: true, label: 'lock' },
  );
  const date = (options.now ?? new Date()).toISOString();
  const unpinned: string[] = [];
  for (const result of fetched) {
    if (result.status !== 'fetched' || result.sha256 === undefined || result.size === undefined) continue;
    const pinned = options.pin ? pinnedUrl(result.url, result.repoCommit) : undefined;
    if (options.pin && !pinned && isBranchUrl(result.url)) unpinned.push(result.url);
    files[result.url] = {
      sha256: result.sha256,
      size: result.size,
      ...(result.contentType ? { contentType: result.contentType } : {}),
      ...(pinned ? { source: pinned } : {}),
      ...(result.repoCommit ? { repoCommit: result.repoCommit } : {}),
      tasks: users.get(result.url) ?? [],
      lockedAt: date,
    };
  }
  return { lock: { lockfileVersion: 1, files }, fetched, kept: users.size - toFetch.length, pruned, unpinned };
}

/** `…/resolve/<branch>/…` (a Hugging Face file URL not already naming a commit). */
const RESOLVE_REF = /\/resolve\/([^/]+)\//;
const COMMIT = /^[0-9a-f]{40}$/;

function isBranchUrl(url: string): boolean {
  const ref = RESOLVE_REF.exec(url)?.[1];
  return ref !== undefined && !COMMIT.test(ref);
}

/** The URL with its branch replaced by the commit, when it names a branch and the commit looks like one. */
export function pinnedUrl(url: string, commit: string | undefined): string | undefined {
  if (!commit || !COMMIT.test(commit) || !isBranchUrl(url)) return undefined;
  return url.replace(RESOLVE_REF, `/resolve/${commit}/`);
}
