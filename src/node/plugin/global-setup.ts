// vitest globalSetup, added by the plugin. First, once per run and before any test: the Docker engine and the desktop
// image must be there (with one clear error rather than every task failing alike, and before any result is touched).
// Then it makes sure no desktop container of this run outlives it. Ryuk (testcontainers' reaper) cannot be pulled
// here, so a reaper process of our own watches the run — it removes the run's containers however vitest ends
// (normally, Ctrl-C, a crashed worker, or vitest itself killed) — and the teardown also removes leftovers directly at
// the normal end of a run. With the docker provider it also runs the run's pool of warm desktops (desktop.warm).
import type { TestProject } from 'vitest/node';
import { PAYLOAD_KEY, type WorkerPayload } from '../../contract/payload.ts';
import { removeContainers } from '../../desktop/cleanup.ts';
import { startDesktop } from '../../desktop/providers/docker/container.ts';
import { assertDesktopImage } from '../../desktop/image.ts';
import { startReaper } from '../../desktop/reaper.ts';
import { WarmDesktopPool } from '../../desktop/providers/docker/warm-pool.ts';
import { type ServedPool, serveDesktopPool } from '../../desktop/providers/docker/warm-pool-endpoint.ts';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // The plugin's payload says which provider the tasks use (a remote desktop needs no engine here) and the run's id.
  const payload = project.getProvidedContext()[PAYLOAD_KEY];
  if (!payload) return async () => {};
  const { runId, run } = payload;
  if (run.desktop.provider === 'docker') await assertDesktopImage(run.desktop.image);
  const stopReaper = startReaper(runId);
  const pool = await serveWarmDesktops(project, payload);
  return async () => {
    await pool?.close();
    const removed = await removeContainers({ runId }).catch((error: Error) => {
      console.error(`[deskbench] could not remove the containers of run ${runId}: ${error.message}`);
      return [] as string[];
    });
    if (removed.length) console.error(`[deskbench] removed ${removed.length} leftover desktop container(s) of run ${runId}`);
    stopReaper();
  };
}

/** The run's warm desktops, one per worker unless desktop.warm says otherwise; their address goes to the workers. */
async function serveWarmDesktops(project: TestProject, payload: WorkerPayload): Promise<ServedPool | undefined> {
  const { desktop } = payload.run;
  if (desktop.provider !== 'docker') return undefined;
  const size = desktop.warm ?? project.config.maxWorkers;
  if (!size) return undefined;
  const { image, limits, hostAddress } = desktop;
  const { runId, taskRuns: limit } = payload;
  // At most one desktop per task test of the run (the plugin counts them; a filtered or sharded run takes fewer).
  const served = await serveDesktopPool(new WarmDesktopPool({ size, limit, start: () => startDesktop({ image, limits, hostAddress, runId }) }));
  project.provide(PAYLOAD_KEY, { ...payload, pool: served.address });
  return served;
}
