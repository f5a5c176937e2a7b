// Every task ends with a verdict of its own, through the runner's API on real containers: its timeout (TIMED_OUT),
// an abort (ABORTED: Ctrl-C), and agents that break the contract (AGENT_ERROR). Each ends with summary.json, and a
// task that took a container of its own has none left the moment runTask returns (one of each verdict is checked so);
// the tests of what the agent returned share one desktop of the project's pool (the remote provider: runTask leaves it).
import { execFile } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from 'vitest';
import type { Agent } from '../../src/agent/types.ts';
import { readTaskFile } from '../../src/adapters/load.ts';
import type { TaskSummary } from '../../src/contract/summary.ts';
import { removeContainers } from '../../src/desktop/cleanup.ts';
import { startDesktop } from '../../src/desktop/providers/docker/container.ts';
import type { DesktopSpec } from '../../src/desktop/providers/index.ts';
import { WarmDesktopPool } from '../../src/desktop/providers/docker/warm-pool.ts';
import { serveDesktopPool } from '../../src/desktop/providers/docker/warm-pool-endpoint.ts';
import { type RunTaskOptions, runTask } from '../../src/worker/run-task.ts';
import type { Task } from '../../src/task/types.ts';
import { ownRunId, type TestDesktop, takeDesktop } from '../helpers/desktops.ts';

const exec = promisify(execFile);
const TASK = resolve(import.meta.dirname, '../../fixtures/tasks/runner/examples/os/7d1f0a52-3c5e-4e8b-9a61-000000000001.json');

function loadTask(): Task {
  const result = readTaskFile(TASK, { explicit: true });
  if (result.kind !== 'task') throw new Error('fixture task did not load');
  return result.task;
}

// The containers of the tasks that remove their own carry this file's run id, so the ones left can be counted.
const RUN_ID = ownRunId('verdicts');

let shared: TestDesktop;
beforeAll(async () => {
  shared = await takeDesktop();
}, 300_000);
afterAll(async () => {
  await shared?.stop();
  await removeContainers({ runId: RUN_ID });
});
/** The shared desktop, as runTask's `desktop` option. */
const onShared = (): { desktop: DesktopSpec } => ({ desktop: { provider: 'remote', url: shared.url, token: shared.token } });

/**
 * A desktop of the task's own, started under this file's run id before the task starts (so its timeout counts from a
 * ready desktop, however slowly the machine starts one): the task takes it as it takes one from a run's pool, and
 * removes its container when it ends.
 */
async function ownDesktop(): Promise<{ desktop: DesktopSpec }> {
  const desktop = await startDesktop({ runId: RUN_ID });
  const served = await serveDesktopPool(new WarmDesktopPool({ size: 0, start: async () => desktop }));
  onTestFinished(() => served.close());
  return { desktop: { provider: 'docker', pool: served.address } };
}

async function runWith(agent: Agent, overrides: Partial<RunTaskOptions> & { desktop: DesktopSpec }) {
  const resultsDir = await mkdtemp(join(tmpdir(), 'deskbench-verdicts-'));
  const outcome = await runTask(loadTask(), {
    agent,
    maxSteps: 3,
    observationType: 'screenshot',
    pauseAfterAction: 0,
    settleAfterSetup: 0,
    settleBeforeEvaluation: 0,
    passThreshold: 1,
    resultsDir,
    cacheDir: join(resultsDir, 'download-cache'),
    record: false,
    resume: false,
    ...overrides,
  });
  // Checked right when runTask returns: the desktop must already be gone, not at the end of the run.
  const { stdout } = await exec('docker', ['ps', '-a', '-q', '--filter', `label=deskbench.run=${RUN_ID}`]);
  const summary = JSON.parse(await readFile(join(outcome.resultDir, 'summary.json'), 'utf8')) as TaskSummary;
  return { outcome, summary, containers: stdout.trim().split('\n').filter(Boolean) };
}

/** An agent whose model never answers, and does not honour the abort signal either. */
const neverAnswers = (onPredict = () => {}): Agent => ({
  name: 'never-answers',
  predict: () => {
    onPredict();
    return new Promise(() => {});
  },
});

describe('timeouts and aborts', () => {
  test('a task past its timeout ends TIMED_OUT with its summary, and its container is removed at once', async () => {
    const { outcome, summary, containers } = await runWith(neverAnswers(), { timeout: 8, ...(await ownDesktop()) });
    expect(outcome).toMatchObject({ status: 'error', score: 0, passed: false, state: 'TIMED_OUT' });
    expect(outcome.error).toBe('timed out after 8 s (the timeout option) during the agent loop');
    expect(summary.results).toMatchObject({ state: 'TIMED_OUT', score: 0, output: outcome.error });
    expect(containers).toEqual([]);
  });

  test('an abort (Ctrl-C) mid-predict ends ABORTED with its summary and no container', async () => {
    const controller = new AbortController();
    const agent = neverAnswers(() => setTimeout(() => controller.abort(), 500));
    const { outcome, summary, containers } = await runWith(agent, { signal: controller.signal, timeout: 300, ...(await ownDesktop()) });
    expect(outcome).toMatchObject({ status: 'error', state: 'ABORTED', error: "stopped (Ctrl-C or vitest's test timeout) during the agent loop" });
    expect(summary.results.state).toBe('ABORTED');
    expect(containers).toEqual([]);
  });

  test('the loop stops acting on abort: no action after it is executed or recorded', async () => {
    const controller = new AbortController();
    let predictions = 0;
    const agent: Agent = {
      name: 'waits-then-aborted',
      predict: () => {
        if (++predictions === 2) controller.abort();
        return { actions: ['WAIT', "pyautogui.typewrite('never typed')"] };
      },
    };
    const { outcome } = await runWith(agent, { signal: controller.signal, maxSteps: 10, ...onShared() });
    expect(outcome.state).toBe('ABORTED');
    expect(predictions).toBe(2);
    const trajectory = (await readFile(join(outcome.resultDir, 'traj.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line));
    // Step 1's two actions ran; step 2 was answered as the abort came, and none of its actions ran.
    expect(trajectory.filter((line) => line.step_num === 2)).toEqual([]);
    expect(trajectory.filter((line) => line.step_num === 1)).toHaveLength(2);
  });
});

describe('agent contract violations are AGENT_ERROR with what was expected', () => {
  test('the task ends AGENT_ERROR with its summary, and its container is removed at once', async () => {
    const { outcome, summary, containers } = await runWith({ name: 'contract-breaker', predict: () => 'DONE' } as unknown as Agent, await ownDesktop());
    expect(outcome).toMatchObject({ status: 'error', state: 'AGENT_ERROR' });
    expect(summary.results.state).toBe('AGENT_ERROR');
    expect(containers).toEqual([]);
  });

  test.each([
    ['predict returning undefined', undefined, 'returned nothing; expected an object { actions: [...]'],
    ['predict returning null', null, 'returned null; expected an object { actions: [...]'],
    ['predict returning a string', 'DONE', 'returned "DONE"; expected an object { actions: [...]'],
    ['actions as a string', { actions: 'DONE' }, 'returned actions "DONE"; expected a list of actions'],
    ['no actions', { response: 'hi' }, 'returned actions nothing; expected a list of actions'],
    ['an action that is a number', { actions: ['WAIT', 42] }, 'returned actions[1] = 42; expected a pyautogui code string'],
    ['an action that is null', { actions: [null] }, 'returned actions[0] = null; expected a pyautogui code string'],
  ])('%s', async (_, answer, expected) => {
    const agent = { name: 'contract-breaker', predict: () => answer } as unknown as Agent;
    const { outcome, summary } = await runWith(agent, onShared());
    expect(outcome).toMatchObject({ status: 'error', state: 'AGENT_ERROR' });
    expect(outcome.error).toContain(`agent "contract-breaker" at step 1: predict() ${expected}`);
    expect(summary.results.state).toBe('AGENT_ERROR');
    // Nothing was run, in particular not a string's characters one by one.
    expect(summary.results.steps_taken).toBe(0);
  });
});
