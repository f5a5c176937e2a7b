// Global setup of the `desktop` test project: before any desktop test, one desktop must come up. When it cannot (no
// engine, no image, a desktop that never gets ready), the project stops at once with the container's own log and
// processes, instead of every test waiting out its timeout — on CI that is the difference between a clear message in
// a minute and a run killed at its time limit with nothing said. Its teardown removes whatever container of this run
// the tests left behind (a test that threw while a task was still running), and says so; the reaper does the same
// when vitest is killed before any teardown can run.
import { getContainerRuntimeClient } from 'testcontainers';
import { startDesktop } from '../src/desktop/docker-provider.ts';
import { removeContainers } from '../src/desktop/cleanup.ts';
import { RUN_LABEL } from '../src/desktop/labels.ts';
import { startReaper } from '../src/desktop/reaper.ts';
import { DESKTOP_TESTS_RUN_ID as RUN_ID } from './desktop-run-id.ts';

const STARTUP_TIMEOUT_MS = 240_000;

export default async function desktopSmoke(): Promise<() => Promise<void>> {
  const stopReaper = startReaper(RUN_ID);
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
    await desktop.stop();
    console.log(`[desktop tests] a desktop container was ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } catch (error) {
    stopReaper();
    throw new Error(
      `[desktop tests] no desktop came up within ${STARTUP_TIMEOUT_MS / 1000} s, so the desktop tests do not run: ${(error as Error).message}\n` +
        `What the container showed last:\n${lastSeen}`,
    );
  } finally {
    clearInterval(watch);
    await removeContainers({ runId: RUN_ID }).catch(() => {});
  }
  return async () => {
    const left = await removeContainers({ runId: RUN_ID });
    stopReaper();
    if (left.length > 0) {
      console.warn(`[desktop tests] removed ${left.length} container(s) of run ${RUN_ID} that the tests left behind: ${left.map((id) => id.slice(0, 12)).join(', ')}`);
    }
  };
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
