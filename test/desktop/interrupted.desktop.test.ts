// A desktop test run interrupted by a SIGINT to vitest alone (as a process manager sends it; not to its process group,
// so its workers exit at once when vitest goes, with no hook run) leaves no container behind: neither the project
// pool's nor one a test file started under a run id of its own. A container of a test's own pool was once left
// running for two hours this way.
import { execFile, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';
import { removeContainer } from '../../src/desktop/cleanup.ts';
import { RUN_LABEL } from '../../src/desktop/labels.ts';
import { until } from './until.ts';

const FIXTURE = resolve(import.meta.dirname, '../../fixtures/interrupted-desktop-run');
const VITEST = resolve(import.meta.dirname, '../../node_modules/vitest/vitest.mjs');
const exec = promisify(execFile);

/** The containers of a run and of the runs under it (their ids start with the run's id and a dash). */
async function containersOf(runId: string): Promise<{ id: string; run: string }[]> {
  const { stdout } = await exec('docker', ['ps', '-a', '--filter', 'label=deskbench', '--format', `{{.ID}} {{.Label "${RUN_LABEL}"}}`]);
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => ({ id: line.split(' ')[0], run: line.split(' ')[1] ?? '' }))
    .filter(({ run }) => run === runId || run.startsWith(`${runId}-`));
}

test('a SIGINT to vitest running desktop tests leaves no container of its run', { timeout: 300_000 }, async () => {
  const env: NodeJS.ProcessEnv = { ...process.env, CI: 'true', NO_COLOR: '1', VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' };
  delete env.DESKBENCH_RUN_ID; // the fixture run has its own (test/desktop-project.ts)
  const child = spawn(process.execPath, [VITEST, 'run'], { cwd: FIXTURE, env, stdio: 'ignore' });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const runId = `test-desktop-${child.pid}`;
  try {
    // Both held: the pool's (under the run id) and the file's own (under an id of its own below it).
    await until('the run to hold both desktops', async () => {
      const held = await containersOf(runId);
      return held.some(({ run }) => run === runId) && held.some(({ run }) => run.startsWith(`${runId}-held-`));
    }, 240_000);
    process.kill(child.pid!, 'SIGINT');
    await exited;
    // The reapers sweep for a few seconds after vitest and its worker are gone.
    await expect.poll(() => containersOf(runId), { timeout: 30_000, interval: 1_000 }).toEqual([]);
  } finally {
    child.kill('SIGKILL');
    for (const { id } of await containersOf(runId)) await removeContainer(id);
  }
});
