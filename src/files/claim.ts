// One writer per cache file across processes: vitest's workers are processes of their own, and two tasks (or a task
// and `deskbench files pull`) may want the same URL at once. The writer holds `<file>.partial.lock` (its pid inside);
// the others wait for it to go. A lock whose process is gone is stale and taken over, so a crash never blocks a file;
// so is one under which nothing has been written for STALE_MS (its pid may have been reused by another process).
import { open, readFile, rm, stat } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { PARTIAL_SUFFIX } from './cache.ts';

const POLL_MS = 100;
/** Longer than a download's idle timeout and back-off: a holder that writes nothing for this long is not working. */
const STALE_MS = 10 * 60_000;

/**
 * Runs `work` holding the claim on `target`, or, when another live process holds it, waits until it lets go and
 * returns `undefined` (the caller looks for the file it wrote).
 */
export async function withClaim<T>(target: string, work: () => Promise<T>, signal?: AbortSignal): Promise<T | undefined> {
  const lock = `${target}${PARTIAL_SUFFIX}.lock`;
  for (;;) {
    const handle = await open(lock, 'wx').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'EEXIST') return undefined;
      throw error;
    });
    if (handle) {
      try {
        await handle.writeFile(String(process.pid));
        await handle.close();
        return await work();
      } finally {
        await rm(lock, { force: true });
      }
    }
    const holder = Number.parseInt(await readFile(lock, 'utf8').catch(() => ''), 10);
    if (!isAlive(holder)) {
      // Its process is gone (or it had not written its pid yet, and then it is fresh: look again before taking it).
      await delay(POLL_MS, undefined, { signal });
      if (Number.parseInt(await readFile(lock, 'utf8').catch(() => ''), 10) === holder && !isAlive(holder)) await rm(lock, { force: true });
      continue;
    }
    while (await readFile(lock, 'utf8').then((text) => Number.parseInt(text, 10) === holder, () => false)) {
      if (Date.now() - (await lastWrite(lock, `${target}${PARTIAL_SUFFIX}`)) > STALE_MS) {
        await rm(lock, { force: true });
        break;
      }
      await delay(POLL_MS, undefined, { signal });
    }
    if (await stat(target).then(() => false, () => true)) continue; // taken over, or let go without a file: try again
    return undefined;
  }
}

/** When the holder last showed life: the newer of its lock's and its partial file's modification times. */
async function lastWrite(...paths: string[]): Promise<number> {
  const times = await Promise.all(paths.map((path) => stat(path).then((s) => s.mtimeMs, () => 0)));
  return Math.max(...times);
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
