// Global setup of the `desktop` test project. Before any desktop test, one desktop must come up. When it cannot (no
// engine, no image, a desktop that never gets ready), the project stops at once with the container's own log and
// processes, instead of every test waiting out its timeout — on CI that is the difference between a clear message in
// a minute and a run killed at its time limit with nothing said.
// Then it serves the project's pool of warm desktops (src/desktop/providers/docker/warm-pool.ts, as the plugin serves a run's): test
// files take their desktops there (test/helpers/desktops.ts), so a file does not wait the seconds a GNOME desktop takes
// to start while the file before it runs; the desktop that came up first is the pool's first. Every desktop of the
// pool carries this run's id: the reaper removes them however vitest ends (Ctrl-C, a SIGINT to vitest alone, vitest
// killed), and the teardown removes whatever container of this run the tests left behind, and says so.
import { getContainerRuntimeClient } from 'testcontainers';
import type { TestProject } from 'vitest/node';
import { removeContainers } from '../src/desktop/cleanup.ts';
import { type Desktop, startDesktop } from '../src/desktop/providers/docker/container.ts';
import { RUN_LABEL } from '../src/desktop/labels.ts';
import { startReaper } from '../src/desktop/reaper.ts';
import { WarmDesktopPool } from '../src/desktop/providers/docker/warm-pool.ts';
import { serveDesktopPool } from '../src/desktop/providers/docker/warm-pool-endpoint.ts';
import { DESKTOP_POOL_KEY, DESKTOP_TESTS_RUN_ID as RUN_ID } from './desktop-project.ts';

const STARTUP_TIMEOUT_MS = 240_000;
/** Desktops kept starting or ready beside those in use: one, so the next file's is ready when it asks. */
const WARM = 1;

export default async function desktopTests(project: TestProject): Promise<() => Promise<void>> {
  const stopReaper = startReaper(RUN_ID);
  let first: Desktop | undefined = await firstDesktop().catch((error: Error) => {
    stopReaper();
    throw error;
  });
  const start = () => startDesktop({ runId: RUN_ID, startupTimeoutMs: STARTUP_TIMEOUT_MS });
  const pool = new WarmDesktopPool({
    size: WARM,
    // The pool fills on its first request: the desktop that came up first is handed out then.
    start: () => {
      const ready = first;
      first = undefined;
      return ready ? Promise.resolve(ready) : start();
    },
  });
  const served = await serveDesktopPool(pool);
  project.provide(DESKTOP_POOL_KEY, served.address);
  return async () => {
    await served.close();
    await first?.stop().catch(() => {});
    const left = await removeContainers({ runId: RUN_ID });
    stopReaper();
    if (left.length > 0) {
      console.warn(`[desktop tests] removed ${left.length} container(s) of run ${RUN_ID} that the tests left behind: ${left.map((id) => id.slice(0, 12)).join(', ')}`);
    }
  };
}

/** The first desktop of the run, or an error with what its container showed last. */
async function firstDesktop(): Promise<Desktop> {
  const started = Date.now();
  let lastSeen = '(no container was created)';
  const watch = setInterval(() => {
    // A look that fails (the container just created, or already gone) must never fail the run: keep the last one.
    describeContainer()
      .then((seen) => {
        if (seen) lastSeen = seen;
      })
      .catch(() => {});
  }, 5_000);
  try {
    const desktop = await startDesktop({ runId: RUN_ID, startupTimeoutMs: STARTUP_TIMEOUT_MS });
    console.log(`[desktop tests] a desktop container was ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return desktop;
  } catch (error) {
    await removeContainers({ runId: RUN_ID }).catch(() => {});
    throw new Error(
      `[desktop tests] no desktop came up within ${STARTUP_TIMEOUT_MS / 1000} s, so the desktop tests do not run: ${(error as Error).message}\n` +
        `What the container showed last:\n${lastSeen}`,
    );
  } finally {
    clearInterval(watch);
  }
}

async function describeContainer(): Promise<string | undefined> {
  const { dockerode } = (await getContainerRuntimeClient()).container;
  const [info] = await dockerode.listContainers({ all: true, filters: { label: [`${RUN_LABEL}=${RUN_ID}`] } });
  if (!info) return undefined;
  const container = dockerode.getContainer(info.Id);
  const logs = (await container.logs({ stdout: true, stderr: true, tail: 40 })).toString('utf8').replace(/[\x00-\x08]/g, '');
  const top = await container.top({ ps_args: '-eo pid,etime,pcpu,rss,args' }).catch(() => undefined);
  // Docker answers `Processes: null` for a container that is created but has no process yet.
  const processes = top?.Processes ? top.Processes.map((row: string[]) => row.join(' ').slice(0, 160)).join('\n') : '(no process list)';
  return `state: ${info.State} (${info.Status})\n--- log (last 40 lines) ---\n${logs}\n--- processes ---\n${processes}`;
}
