// vitest globalSetup, added by the plugin. First, once per run and before any test: what the desktop provider needs
// must be there (its `prepare`; docker: the Docker engine and the desktop image), with one clear error rather than
// every task failing alike, and before any result is touched.
// Then it makes sure no desktop container of this run outlives it. Ryuk (testcontainers' reaper) cannot be pulled
// here, so a reaper process of our own watches the run — it removes the run's containers however vitest ends
// (normally, Ctrl-C, a crashed worker, or vitest itself killed) — and the teardown also removes leftovers directly at
// the normal end of a run. When the provider serves warm desktops (docker: desktop.warm) it also runs the run's pool.
import type { TestProject } from 'vitest/node';
import { PAYLOAD_KEY, type WorkerPayload } from '../../contract/payload.ts';
import { removeContainers } from '../../desktop/cleanup.ts';
import { desktopProviderOf } from '../../desktop/providers/index.ts';
import type { DesktopProviderDefinition, ServedDesktopPool } from '../../desktop/providers/provider.ts';
import { startReaper } from '../../desktop/reaper.ts';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // The plugin's payload says which provider the tasks use (a remote desktop needs no engine here) and the run's id.
  const payload = project.getProvidedContext()[PAYLOAD_KEY];
  if (!payload) return async () => {};
  const { runId, run } = payload;
  const provider = desktopProviderOf(run.desktop);
  await provider.prepare?.(run.desktop);
  const stopReaper = startReaper(runId);
  const pool = await serveWarmDesktops(project, payload, provider);
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

/** The run's warm desktops, when its provider serves them (docker: desktop.warm, default one per worker); their address goes to the workers. */
async function serveWarmDesktops(project: TestProject, payload: WorkerPayload, provider: DesktopProviderDefinition): Promise<ServedDesktopPool | undefined> {
  const { runId, taskRuns, run } = payload;
  const served = await provider.serveWarmDesktops?.(run.desktop, { runId, workers: project.config.maxWorkers, taskRuns });
  if (!served) return undefined;
  project.provide(PAYLOAD_KEY, { ...payload, pool: served.address });
  return served;
}
