// Our own reaper, doing Ryuk's job (testcontainers' reaper, whose image cannot be pulled here): a small detached
// process per run that holds a pipe from vitest's main process. When that pipe closes — the run ended, was stopped
// with Ctrl-C, or vitest was killed outright — it removes every container labelled with the run id, sweeping for a
// few seconds to catch containers that were still being created, then exits.
//   node reaper.ts <run id>      (started by startReaper(); reads stdin until it closes)
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { removeContainers } from './cleanup.ts';

const SWEEP_MS = 6000;

/** Starts the reaper for a run; returns a function that ends it (its sweep then finds nothing left). */
export function startReaper(runId: string): () => void {
  // Run from src/ (a .ts file) on a Node that strips types only with the flag; the built package runs dist/reaper.js.
  const args = process.features.typescript || !import.meta.url.endsWith('.ts') ? [] : ['--experimental-strip-types', '--no-warnings'];
  const child = spawn(process.execPath, [...args, fileURLToPath(import.meta.url), runId], {
    detached: true, // its own process group: a Ctrl-C sent to vitest's group does not reach it
    stdio: ['pipe', 'ignore', 'inherit'],
    env: process.env,
  });
  child.unref();
  const pipe = child.stdin as unknown as { unref(): void; end(): void } | null;
  pipe?.unref(); // the open pipe must not keep vitest alive
  return () => pipe?.end();
}

async function reap(runId: string): Promise<void> {
  const removed = new Set<string>();
  const until = Date.now() + SWEEP_MS;
  do {
    for (const id of await removeContainers({ runId }).catch(() => [] as string[])) removed.add(id);
    await new Promise((resolve) => setTimeout(resolve, 500));
  } while (Date.now() < until);
  if (removed.size) process.stderr.write(`[deskbench] reaper removed ${removed.size} leftover desktop container(s) of run ${runId}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const runId = process.argv[2];
  if (!runId) {
    process.stderr.write('usage: reaper.ts <run id>\n');
    process.exit(2);
  }
  process.stdin.resume();
  // 'close' follows the end of the pipe however it ends (vitest exits, crashes or is killed): reap once then.
  process.stdin.once('close', () => void reap(runId).finally(() => process.exit(0)));
}
