// vitest globalSetup, added by the plugin. First, once per run and before any test: the Docker engine and the desktop
// image must be there (with one clear error rather than every task failing alike, and before any result is touched).
// Then it makes sure no desktop container of this run outlives it. Ryuk (testcontainers' reaper) cannot be pulled
// here, so a reaper process of our own watches the run — it removes the run's containers however vitest ends
// (normally, Ctrl-C, a crashed worker, or vitest itself killed) — and the teardown also removes leftovers directly at
// the normal end of a run. With the docker provider it also runs the run's pool of warm desktops (desktop.warm).
import type { TestProject } from 'vitest/node';
import { removeContainers } from '../../desktop/cleanup.ts';
import { startDesktop } from '../../desktop/docker-provider.ts';
import { assertDesktopImage } from '../../desktop/image.ts';
import { startReaper } from '../../desktop/reaper.ts';
import { WarmDesktopPool } from '../../desktop/warm-pool.ts';
import { DESKTOP_POOL_KEY, type ServedPool, serveDesktopPool } from '../../desktop/warm-pool-endpoint.ts';
import { SECRET_OPTIONS_KEY, TASK_RUNS_KEY } from './options.ts';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // The plugin says which provider its tasks use (a remote desktop needs no engine here).
  if (process.env.DESKBENCH_DESKTOP_PROVIDER === 'docker') await assertDesktopImage(process.env.DESKBENCH_DESKTOP_IMAGE || undefined);
  const runId = process.env.DESKBENCH_RUN_ID;
  if (!runId) return async () => {};
  const stopReaper = startReaper(runId);
  const pool = process.env.DESKBENCH_DESKTOP_PROVIDER === 'docker' ? await serveWarmDesktops(project) : undefined;
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
async function serveWarmDesktops(project: TestProject): Promise<ServedPool | undefined> {
  const desktop = project.getProvidedContext()[SECRET_OPTIONS_KEY]?.desktop;
  if (desktop?.provider !== 'docker') return undefined;
  const size = desktop.warm ?? project.config.maxWorkers;
  if (!size) return undefined;
  const { image, limits, hostAddress } = desktop;
  // At most one desktop per task test of the run (the plugin counts them; a filtered or sharded run takes fewer).
  const limit = project.getProvidedContext()[TASK_RUNS_KEY];
  const served = await serveDesktopPool(new WarmDesktopPool({ size, limit, start: () => startDesktop({ image, limits, hostAddress }) }));
  project.provide(DESKTOP_POOL_KEY, served.address);
  return served;
}
