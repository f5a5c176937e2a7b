// vitest globalSetup, added by the plugin. First, once per run and before any test: the Docker engine and the desktop
// image must be there (with one clear error rather than every task failing alike, and before any result is touched).
// Then it makes sure no desktop container of this run outlives it. Ryuk (testcontainers' reaper) cannot be pulled
// here, so a reaper process of our own watches the run — it removes the run's containers however vitest ends
// (normally, Ctrl-C, a crashed worker, or vitest itself killed) — and the teardown also removes leftovers directly at
// the normal end of a run.
import type { TestProject } from 'vitest/node';
import { removeContainers } from '../desktop/cleanup.ts';
import { assertDesktopImage } from '../desktop/image.ts';
import { startReaper } from '../desktop/reaper.ts';

export default async function setup(_project: TestProject): Promise<() => Promise<void>> {
  // The plugin says which provider its tasks use (a remote desktop needs no engine here).
  if (process.env.DESKBENCH_DESKTOP_PROVIDER === 'docker') await assertDesktopImage(process.env.DESKBENCH_DESKTOP_IMAGE || undefined);
  const runId = process.env.DESKBENCH_RUN_ID;
  if (!runId) return async () => {};
  const stopReaper = startReaper(runId);
  return async () => {
    const removed = await removeContainers({ runId }).catch((error: Error) => {
      console.error(`[deskbench] could not remove the containers of run ${runId}: ${error.message}`);
      return [] as string[];
    });
    if (removed.length) console.error(`[deskbench] removed ${removed.length} leftover desktop container(s) of run ${runId}`);
    stopReaper();
  };
}
