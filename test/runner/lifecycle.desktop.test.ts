// The runner as users run it: the real vitest CLI on a fixture project of four quick OS tasks, real containers.
// Each run gets its own run id, so the containers it leaves (or not) can be counted by label afterwards. The run with
// the noop agent, each task's verdict and the reports: test/report/report-e2e.desktop.test.ts; the run with an Agent
// object in the config: test/report/progress.desktop.test.ts.
// A run of these tasks mostly waits while its one desktop starts (each task takes a second once it has one), so the
// runs that do not depend on timing go in three lanes at once before the tests, which then check what each run left.
// The timeout run waits out its timeout beside them; the Ctrl-C run (pressed once a desktop is up) runs alone.
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, test } from 'vitest';
import type { RunReport } from '../../src/node/report/aggregate.ts';
import type { TaskSummary } from '../../src/contract/summary.ts';
import { childRunId } from '../helpers/child-run.ts';
import { vitestCli } from '../plugin/run-vitest.ts';

const PROJECT = resolve(import.meta.dirname, '../../fixtures/runner-project');
const AGENTS = resolve(import.meta.dirname, '../../fixtures/agents');
const VITEST = resolve(import.meta.dirname, '../../node_modules/vitest/vitest.mjs');
const exec = promisify(execFile);

interface JsonReport {
  testResults: { name: string; assertionResults: { status: string; failureMessages: string[] }[] }[];
}

async function containersOf(runId: string): Promise<string[]> {
  const { stdout } = await exec('docker', ['ps', '-a', '-q', '--filter', `label=deskbench.run=${runId}`]);
  return stdout.trim().split('\n').filter(Boolean);
}

async function runProject(agent: string, extraArgs: string[] = [], extraEnv: Record<string, string> = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'deskbench-runner-'));
  const runId = childRunId('lifecycle');
  const out = join(dir, 'vitest.json');
  const run = await vitestCli(PROJECT, ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`, ...extraArgs], {
    DESKBENCH_RUN_ID: runId,
    DESKBENCH_RESULTS: join(dir, 'results'),
    DESKBENCH_FIXTURE_AGENT: agent,
    ...extraEnv,
  });
  const json = JSON.parse(await readFile(out, 'utf8')) as JsonReport;
  const byTask = new Map(json.testResults.map((r) => [basename(r.name, '.json').slice(-2), r.assertionResults[0]]));
  const report = JSON.parse(await readFile(join(dir, 'results', 'report.json'), 'utf8').catch(() => 'null')) as RunReport | null;
  return { run, runId, dir, byTask, report };
}

/** summary.json results of every task folder under a run's results, by the last two digits of the task id. */
async function summariesOf(dir: string): Promise<Map<string, TaskSummary['results']>> {
  const files = (await readdir(join(dir, 'results'), { recursive: true })).filter((file) => file.endsWith('summary.json'));
  const summaries = await Promise.all(files.map(async (file) => JSON.parse(await readFile(join(dir, 'results', file), 'utf8')) as TaskSummary));
  return new Map(summaries.map((summary) => [summary.uid.slice(-2), summary.results]));
}

type ProjectRun = Awaited<ReturnType<typeof runProject>>;
let failRun: ProjectRun;
let killRun: ProjectRun;
let crashRun: ProjectRun;
let timeoutRun: ProjectRun;
let resumeRuns: Awaited<ReturnType<typeof runResume>>;

/** The timeout run's task timeout, in seconds: see its test. */
const TIMEOUT_S = 60;

beforeAll(async () => {
  await Promise.all([
    (async () => {
      // A feasible task and the infeasible one: FAIL scores 0 on the one and 1 on the other.
      failRun = await runProject('fail', ['01', '04']);
      crashRun = await runProject(join(AGENTS, 'crash-worker.ts'), ['--maxWorkers=1', '01', '02']);
    })(),
    (async () => {
      // 02 kills its desktop: 01 ran before it, 03 after it, in the one worker.
      killRun = await runProject(join(AGENTS, 'kill-desktop.ts'), ['--maxWorkers=1', '01', '02', '03']);
    })(),
    (async () => {
      resumeRuns = await runResume();
    })(),
    (async () => {
      timeoutRun = await runProject(join(AGENTS, 'never-answers.ts'), ['01'], { DESKBENCH_TIMEOUT: String(TIMEOUT_S) });
    })(),
  ]);
}, 600_000);

/** Two runs into one results folder with resume: 02 and 03 first, then all four. */
async function runResume() {
  const dir = await mkdtemp(join(tmpdir(), 'deskbench-resume-'));
  const env = { DESKBENCH_RESULTS: join(dir, 'results'), DESKBENCH_FIXTURE_AGENT: 'scripted', DESKBENCH_RESUME: '1' };
  const first = await vitestCli(PROJECT, ['run', '02', '03'], { ...env, DESKBENCH_RUN_ID: childRunId('resume') });
  const out = join(dir, 'second.json');
  const second = await vitestCli(PROJECT, ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`], { ...env, DESKBENCH_RUN_ID: childRunId('resume') });
  return { dir, first, second, out };
}

describe('the agent option', () => {
  test('the fail agent scores the infeasible task 1 and a feasible one 0', async () => {
    const { byTask, report } = failRun;
    expect([...byTask.keys()].sort()).toEqual(['01', '04']);
    expect(byTask.get('04')?.status).toBe('passed');
    // 01 passes with any agent that answers DONE (test/report/report-e2e.desktop.test.ts): FAIL on it scores 0.
    expect(byTask.get('01')?.status).toBe('failed');
    expect(report?.tasks.map((task) => [task.id.slice(-2), task.score]).sort()).toEqual([['01', 0], ['04', 1]]);
  }, 180_000);
});

describe('one broken desktop or worker never takes the run down', () => {
  test('a container killed mid-task fails that test with a clear message; the other tasks run', async () => {
    const { runId, byTask } = killRun;
    const killed = byTask.get('02');
    expect(killed?.status).toBe('failed');
    expect(killed?.failureMessages[0]).toMatch(/DESKTOP_ERROR: the desktop \(\w+\) stopped answering during the agent loop/);
    // The others got a verdict of their own (the agent says DONE on them).
    expect(byTask.get('01')?.status).toBe('passed');
    expect(byTask.get('03')?.status).toBe('failed');
    expect(byTask.get('03')?.failureMessages[0]).toMatch(/score 0\.8\d+ is below the pass threshold/);
    expect([...byTask.keys()].sort()).toEqual(['01', '02', '03']);
    expect(await containersOf(runId)).toEqual([]);
  }, 180_000);

  test("a worker that crashes mid-task leaves no container, and every started task a summary with a final state", async () => {
    const { runId, byTask, run, dir, report } = crashRun;
    expect(run.code).not.toBe(0);
    expect(byTask.get('01')?.status).toBe('passed');
    expect(await containersOf(runId)).toEqual([]);
    const summaries = await summariesOf(dir);
    // The crashed task's summary said RUNNING when its worker died; the reporter finalised it.
    expect(summaries.get('02')).toMatchObject({ state: 'ABORTED', output: expect.stringContaining('worker running this task ended') });
    for (const [id, results] of summaries) expect([id, results.state]).not.toEqual([id, 'RUNNING']);
    expect(report?.tasks.find((t) => t.id.endsWith('02'))).toMatchObject({ state: 'ABORTED', score: null });
  }, 180_000);

  test('a task past its timeout ends TIMED_OUT with its summary, counted as 0 in the overall rate', async () => {
    // 60 s: the task's timeout counts from the desktop's start, which takes 20 s and more on a loaded 2-core machine
    // (this run goes beside the other runs of the file); with 10 s the run timed out while the desktop started, not in
    // the agent loop this test is about.
    const { runId, byTask, dir, report } = timeoutRun;
    expect(byTask.get('01')?.failureMessages[0]).toMatch(new RegExp(`^TaskFailedError: TIMED_OUT: timed out after ${TIMEOUT_S} s \\(the timeout option\\) during the agent loop`));
    expect((await summariesOf(dir)).get('01')).toMatchObject({ state: 'TIMED_OUT', score: 0 });
    expect(report?.tasks.map((t) => [t.id.slice(-2), t.state, t.score])).toEqual([['01', 'TIMED_OUT', null]]);
    expect(report?.total).toMatchObject({ tasks: 1, scored: 0, overallRate: 0 });
    expect(await containersOf(runId)).toEqual([]);
  }, 180_000);

  test('a run stopped with Ctrl-C leaves no container, and every started task a summary saying ABORTED', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'deskbench-sigint-'));
    const runId = childRunId('sigint');
    const child = spawn(process.execPath, [VITEST, 'run', '--maxWorkers=1'], {
      cwd: PROJECT,
      env: { ...process.env, DESKBENCH_RUN_ID: runId, DESKBENCH_RESULTS: join(dir, 'results'), DESKBENCH_FIXTURE_AGENT: join(AGENTS, 'slow.ts'), VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true', CI: 'true' },
      stdio: 'ignore',
      detached: true, // its own process group, so Ctrl-C can be sent to vitest and its workers at once, as a terminal does
    });
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    // Wait until a desktop of this run is up and its agent is waiting, then press Ctrl-C.
    const deadline = Date.now() + 90_000;
    while ((await containersOf(runId)).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 500));
    expect(await containersOf(runId)).not.toEqual([]);
    await new Promise((r) => setTimeout(r, 3000));
    process.kill(-child.pid!, 'SIGINT');
    await exited;
    // Removal is asynchronous in the engine: give it a moment.
    for (let i = 0; i < 20 && (await containersOf(runId)).length; i++) await new Promise((r) => setTimeout(r, 500));
    expect(await containersOf(runId)).toEqual([]);
    // Every task that had started ended ABORTED, with its summary.
    const summaries = await summariesOf(dir);
    expect(summaries.size).toBeGreaterThan(0);
    for (const [id, results] of summaries) expect([id, results.state]).toEqual([id, 'ABORTED']);
  }, 180_000);
});

describe('resume', () => {
  test('a second run with resume skips the tasks that have a result and reports their earlier scores', async () => {
    const { dir, first, second, out } = resumeRuns;
    expect(first.code).toBe(0);
    expect(second.code).toBe(0);
    const json = JSON.parse(await readFile(out, 'utf8')) as JsonReport;
    const status = new Map(json.testResults.map((r) => [basename(r.name, '.json').slice(-2), r.assertionResults[0].status]));
    // 02 and 03 already had results: skipped; 01 and 04 had none: they ran.
    expect(Object.fromEntries(status)).toEqual({ '01': 'passed', '02': 'skipped', '03': 'skipped', '04': 'passed' });
    const report = JSON.parse(await readFile(join(dir, 'results', 'report.json'), 'utf8')) as RunReport;
    expect(report.total).toMatchObject({ tasks: 4, passed: 4, scored: 4, osworldRate: 100 });
  });
});
