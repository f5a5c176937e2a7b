// The example benchmark (examples/, `npm run examples`) through the real vitest CLI, in containers, and what users do
// with its runs: `deskbench compare` and `deskbench rerun`. Four runs of the examples project (its files, tasks and
// solutions: test/examples/examples.test.ts), in two lanes at once before the tests:
// - the scripted agent on every example: each passes, the infeasible one because its solution answers FAIL, the only
//   task where that is right (the fail agent itself: test/runner/lifecycle.desktop.test.ts);
// - the noop agent (DONE at once) on every example outside os and terminal, then the weakened agent
//   (examples/agents/weakened.ts: it gives up on os and terminal, answering DONE at once, and replays the other
//   solutions) on the os, chrome and GUI-OS examples, then its one-task run, `deskbench rerun` on it and the command
//   rerun printed (so the rerun does not run alone after the scripted run). The
//   untouched desktops of the noop run and of the weakened agent's give-ups each fail with a score of 0: no evaluator
//   passes an untouched desktop.
// The scripted run and the weakened one are then compared: its flips, rates and intervals against values computed by
// hand, the compare page opened offline in headless Chromium. (Compare's by-hand numbers stay over five tasks: the
// scripted run's other eight are reported as missing in B.)
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { loadTasks } from '../../src/adapters/load.ts';
import { desktopImage } from '../../src/desktop/image.ts';
import type { RunReport } from '../../src/node/report/aggregate.ts';
import type { Comparison } from '../../src/node/report/compare/compare.ts';
import type { RunRecord } from '../../src/node/report/run-record.ts';
import type { Task } from '../../src/task/types.ts';
import { runChild, shapingVariables } from '../helpers/child-run.ts';
import { withPageInChrome } from '../helpers/pages-in-chrome.ts';
import { vitestCli } from '../plugin/run-vitest.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const { tasks } = loadTasks(['examples'], { cwd: ROOT });
/** The one-desktop project over the same examples, where `deskbench rerun` is run. */
const ONE_DESKTOP = join(ROOT, 'fixtures/examples-one-desktop');
const WEAKENED = './examples/agents/weakened.ts';
/** The same module as the one-desktop project (fixtures/examples-one-desktop) names it, for its run and the rerun. */
const WEAKENED_FROM_ONE_DESKTOP = `../.${WEAKENED}`;
/** The weakened run's tasks: the two os examples (one infeasible), chrome, and the two GUI-OS ones. */
const COMPARED = ['examples/osworld/os/', 'examples/osworld/chrome/', 'examples/guios/'];
const ID = { rename: 'd9fc88b4-5748-49db-9cac-7fd9390a6004', backlight: 'ef29a905-1221-4b04-89cb-36fb403ddace', chrome: 'be1a5909-d660-49ed-bddc-a56ec676909b', gedit: 'c1ca8559-b4cf-4739-870a-01a1e2a18445', terminal: 'ffe43a0f-c906-437f-9b60-08ff978d8d18' };
/** The domains the weakened agent gives up on: its run there is an untouched desktop, as the noop agent's. */
const GIVEN_UP = ['os', 'terminal'];

const IMAGE = desktopImage();
const hasImage = spawnSync('docker', ['image', 'inspect', IMAGE], { stdio: 'ignore' }).status === 0;
const skipped = hasImage ? '' : ` (skipped: docker image ${IMAGE} is missing)`;

interface Assertion {
  status: string;
  failureMessages: string[];
  meta?: { deskbench?: { id: string; score?: number; state?: string; error?: string | null } };
}

interface ExamplesRun {
  results: string;
  stdout: string;
  stderr: string;
  /** Each task's test result, by task id. */
  byId: Map<string, Assertion>;
}

/** Runs the examples project with one agent on the given tasks (their files as filters), results into `results`. */
async function runExamples(results: string, agent: string, filters: string[], expected: Task[]): Promise<ExamplesRun> {
  const out = join(dirname(results), `${agent.replace(/\W/g, '_')}-report.json`);
  const run = await vitestCli(ROOT, ['run', '--project', 'examples', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`, ...filters], {
    DESKBENCH_AGENT: agent,
    DESKBENCH_RESULTS: results,
  });
  if (!existsSync(out)) throw new Error(`vitest wrote no report (exit ${run.code}):\n${run.stdout.slice(-3000)}\n${run.stderr.slice(-3000)}`);
  const report = JSON.parse(await readFile(out, 'utf8')) as { testResults: { assertionResults: Assertion[] }[] };
  const byId = new Map<string, Assertion>();
  for (const file of report.testResults) {
    for (const assertion of file.assertionResults) byId.set(assertion.meta?.deskbench?.id ?? '?', assertion);
  }
  expect([...byId.keys()].sort()).toEqual(expected.map((task) => task.id).sort());
  return { results, stdout: run.stdout, stderr: run.stderr, byId };
}

/** What a test result says of its task: the verdict, the score, how the agent ended, and any error before a score. */
function outcome(task: Task, result: Assertion) {
  const meta = result.meta?.deskbench;
  return { id: task.id, status: result.status, score: meta?.score, state: meta?.state, error: meta?.error ?? null };
}

const deskbench = (args: string[], cwd: string) => runChild(process.execPath, [join(ROOT, 'bin/deskbench.js'), ...args], { cwd });
const readReport = async (dir: string) => JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as RunReport;

const untouched = tasks.filter((task) => !GIVEN_UP.includes(task.domain));
const compared = tasks.filter((task) => COMPARED.some((filter) => relative(ROOT, task.file).startsWith(filter)));

/** Holds the scripted run and the weakened one side by side, as `deskbench compare` takes them. */
let base: string;
let scripted: ExamplesRun;
let noop: ExamplesRun;
let weakened: ExamplesRun;
/** The results folder of the weakened agent's one-task run that `deskbench rerun` reproduces. */
let rerunResults: string;
let rerun: Awaited<ReturnType<typeof rerunTheRun>>;

/**
 * `deskbench rerun` on the one-task run, then the command it printed, in the same tree: the records before and after.
 * Only the command the test expects is run (the test fails when rerun printed another).
 */
async function rerunTheRun(results: string) {
  const first = (await readReport(results)).run!;
  const printed = await deskbench(['rerun', results, '--json'], dirname(results));
  const answer = JSON.parse(printed.stdout) as { cwd: string; commands: string[]; differences: string[] };
  // What the child inherits (DESKBENCH_IMAGE, DOCKER_HOST when the tests run with them set) shapes the run too.
  const variables = shapingVariables({ DESKBENCH_AGENT: WEAKENED_FROM_ONE_DESKTOP, DESKBENCH_RESULTS: results });
  const expected = `${variables} npx vitest run osworld/os/${ID.rename}`;
  if (answer.commands.length !== 1 || answer.commands[0] !== expected) return { first, answer, variables, expected };
  const again = await runChild('bash', ['-c', expected], { cwd: answer.cwd, env: { NO_COLOR: '1', DESKBENCH_AGENT: undefined, DESKBENCH_RESULTS: undefined } });
  return { first, answer, variables, expected, again, second: (await readReport(results)).run! };
}

beforeAll(async () => {
  if (!hasImage) return;
  base = await mkdtemp(join(tmpdir(), 'deskbench-examples-'));
  rerunResults = join(await mkdtemp(join(tmpdir(), 'deskbench-rerun-desktop-')), 'results');
  await Promise.all([
    (async () => {
      scripted = await runExamples(join(base, 'scripted'), 'scripted', [], tasks);
    })(),
    (async () => {
      noop = await runExamples(join(await mkdtemp(join(tmpdir(), 'deskbench-examples-noop-')), 'results'), 'noop', untouched.map((task) => relative(ROOT, task.file)), untouched);
      weakened = await runExamples(join(base, 'weakened'), WEAKENED, COMPARED, compared);
      const run = await vitestCli(ONE_DESKTOP, ['run', `osworld/os/${ID.rename}`], { DESKBENCH_RESULTS: rerunResults, DESKBENCH_AGENT: WEAKENED_FROM_ONE_DESKTOP });
      expect(run.stdout, run.stderr.slice(-3000)).toContain('deskbench results');
      // `deskbench rerun` and its command here too, beside the scripted run, rather than alone after it.
      rerun = await rerunTheRun(rerunResults);
    })(),
  ]);
}, 900_000);

describe.skipIf(!hasImage)(`npm run examples, in desktop containers${skipped}`, () => {
  test('with the scripted agent every example passes with score 1; the infeasible one, answered FAIL, ends in state fail', () => {
    for (const task of tasks) {
      const result = scripted.byId.get(task.id)!;
      expect({ ...outcome(task, result), failure: result.failureMessages[0] }).toEqual({
        id: task.id,
        status: 'passed',
        score: 1,
        // OSWorld: FAIL as the last action scores 1 on an infeasible task.
        state: task.flags.infeasible ? 'fail' : 'success',
        error: null,
        failure: undefined,
      });
    }
  });

  test('with the noop agent every example but the os and terminal ones fails: each is scored 0, none breaks before a score', () => {
    // The os and terminal examples: the weakened run below gives up on them, which is the same untouched desktop.
    expect(untouched.length).toBe(tasks.length - 3);
    for (const task of untouched) {
      const result = noop.byId.get(task.id)!;
      // The noop agent answers DONE, so the run ends in state "success"; the evaluator then scores the untouched
      // desktop. (The infeasible example, an os one, fails so in the weakened run: only a FAIL answer scores it 1.)
      expect(outcome(task, result)).toEqual({ id: task.id, status: 'failed', score: 0, state: 'success', error: null });
      expect(result.failureMessages[0]).toContain('score 0 is below the pass threshold 1');
    }
  });
});

describe.skipIf(!hasImage)(`deskbench compare: the scripted agent against a weakened one${skipped}`, () => {
  let comparison: Comparison;
  beforeAll(async () => {
    const comparedRuns = await deskbench(['compare', 'scripted', 'weakened', '--out', 'compare'], base);
    expect(comparedRuns.code, comparedRuns.stderr).toBe(0);
    comparison = JSON.parse(await readFile(join(base, 'compare', 'compare.json'), 'utf8'));
  });

  test('flips, rates, differences and intervals as computed by hand; the tasks only A ran are not comparable', () => {
    // The scripted run had every example, the weakened one five: the other eight are set apart, not counted.
    expect(comparison.notComparable.map(({ id, reason }) => ({ id, reason })).sort((a, b) => a.id.localeCompare(b.id))).toEqual(
      tasks
        .filter((task) => !compared.includes(task))
        .map((task) => ({ id: task.id, reason: 'missing in B' }))
        .sort((a, b) => a.id.localeCompare(b.id)),
    );
    expect(comparison.runs.map((run) => run.agents)).toEqual([['scripted'], ['weakened']]);
    // The weakened agent gave up on both os tasks and the terminal task: three broken, none fixed.
    expect(comparison.tasks.map((task) => [task.domain, task.id, task.runs.map((run) => run.scores[0]), task.flips[0]])).toEqual([
      ['chrome', ID.chrome, [1, 1], null],
      ['gedit', ID.gedit, [1, 1], null],
      ['os', ID.rename, [1, 0], 'broken'],
      ['os', ID.backlight, [1, 0], 'broken'],
      ['terminal', ID.terminal, [1, 0], 'broken'],
    ]);
    // A: 5 of 5, every resample 100%. B: 2 of 5, a resample's mean is Binomial(5, 0.4)/5: its 2.5% quantile is 0
    // (P(0) = 0.078), its 97.5% quantile 4/5 (P(≤3) = 0.913, P(≤4) = 0.990).
    expect(comparison.total.rates).toEqual([
      { rate: 100, low: 100, high: 100, tasks: 5 },
      { rate: 40, low: 0, high: 80, tasks: 5 },
    ]);
    // Per task B − A is −1 three times and 0 twice: −60 points; the number of broken tasks in a resample is
    // Binomial(5, 0.6), P(≤0) = 0.010 and P(≤1) = 0.087, so the interval's top is −1/5; its bottom is −5/5.
    expect(comparison.total.differences).toEqual([{ run: 'B', difference: -60, low: -100, high: -20, verdict: 'worse', fixed: 0, broken: 3 }]);
    // One-task and two-task domains show their intervals but get no verdict.
    expect(comparison.byDomain.os).toMatchObject({ tasks: 2, rates: [{ rate: 100 }, { rate: 0, low: 0, high: 0 }] });
    expect(comparison.byDomain.os.differences[0]).toMatchObject({ difference: -100, low: -100, high: -100, verdict: 'too few tasks', broken: 2 });
    expect(comparison.byTag.infeasible.differences[0]).toMatchObject({ difference: -100, broken: 1 });
    expect(comparison.settingsThatDiffer.map((s) => s.setting)).toEqual(['agent', 'agent description']);
  });

  test('the weakened run’s report: its interval, printed too, and a record naming the agent module, its hash and describe()', async () => {
    const report = await readReport(weakened.results);
    expect(report.intervals?.total).toEqual({ rate: 40, low: 0, high: 80, tasks: 5 });
    expect(weakened.stdout).toContain('Overall rate 40.00% (95% interval 0.00–80.00%): percentile bootstrap over 5 tasks, 2000 resamples, seed 1.');
    // The three tasks it gave up on (DONE at once, the desktop as the setup left it) each fail with a score of 0 and
    // no error, as the noop run's examples do.
    const gaveUp = report.tasks.filter((task) => GIVEN_UP.includes(task.domain));
    expect(gaveUp.map(({ id, testState, state, score, error, evalError }) => ({ id, testState, state, score, error, evalError })).sort((a, b) => a.id.localeCompare(b.id))).toEqual(
      [ID.backlight, ID.rename, ID.terminal].sort().map((id) => ({ id, testState: 'failed', state: 'success', score: 0, error: null, evalError: null })),
    );
    expect(weakened.stdout + weakened.stderr).toContain('score 0 is below the pass threshold 1');
    const run = report.run!;
    const moduleSha256 = createHash('sha256').update(await readFile(join(ROOT, 'examples/agents/weakened.ts'))).digest('hex');
    // The module as the record names it: relative to the project's root.
    expect(run.agents).toEqual([{ name: 'weakened', module: 'examples/agents/weakened.ts', moduleSha256, description: { strategy: 'replays the solution, except in the domains it gives up on', giveUpOn: GIVEN_UP } }]);
    expect(run.command).toMatchObject({ program: 'vitest', args: expect.arrayContaining(['run', '--project', 'examples', ...COMPARED]), cwd: ROOT, env: { DESKBENCH_AGENT: WEAKENED, DESKBENCH_RESULTS: weakened.results } });
    expect(run.options).toMatchObject({ tasks: 'examples', agent: 'scripted', maxSteps: 15, observationType: 'screenshot', pauseAfterAction: 0.5, desktop: { provider: 'docker', warm: 1 } });
    const [id, label] = spawnSync('docker', ['image', 'inspect', IMAGE, '--format', '{{.Id}} {{index .Config.Labels "deskbench.hash"}}'], { encoding: 'utf8' }).stdout.trim().split(' ');
    expect(run.images).toEqual([{ image: IMAGE, imageId: id, buildHash: label }]);
    const rename = join(ROOT, 'examples/osworld/os', `${ID.rename}.json`);
    expect(run.taskFiles[relative(ROOT, rename)]).toBe(createHash('sha256').update(await readFile(rename)).digest('hex'));
    expect(Object.keys(run.taskFiles)).toHaveLength(5);
    // The examples live in deskbench's own checkout: their corpus commit is deskbench's.
    expect(run.corpora.map((corpus) => corpus.commit)).toEqual([run.deskbench.commit]);
  });

  test('the compare page opens offline in headless Chromium with both final screens of every task', async () => {
    // The folders copied into a desktop as they are side by side here, and opened from disk: no network.
    await withPageInChrome(base, '/home/user/cmp', 'compare/compare.html', async (page) => {
      await expect.poll(() => page.locator('#tasks tbody tr:not([hidden])').count(), WAIT).toBe(5);
      // Two final screens per row, both loaded (1920 pixels wide) from the copied results folders; they load lazily,
      // as a reader scrolls to them.
      for (const row of await page.locator('#tasks tbody tr').all()) {
        await row.scrollIntoViewIfNeeded();
        await expect.poll(() => row.locator('img.final').evaluateAll((imgs: HTMLImageElement[]) => imgs.map((img) => img.complete && img.naturalWidth)), WAIT).toEqual([1920, 1920]);
      }
      await page.selectOption('#flip', 'broken');
      await expect.poll(() => page.locator('#tasks tbody tr:not([hidden])').count(), WAIT).toBe(3);
      // B's screen of a broken task links to B's trajectory page.
      await page.locator(`#tasks tr[data-id="${ID.rename}"] td.run`).nth(1).locator('a').first().click();
      await expect.poll(() => page.locator('#instruction').textContent(), WAIT).toContain('change the extension of every .txt file to .md');
      expect(page.url()).toContain('/cmp/weakened/tasks/');
    });
  });
});

describe.skipIf(!hasImage)(`deskbench rerun on a run of the examples${skipped}`, () => {
  test('its command, run in the same tree, gives a report whose record matches field for field but date and id', () => {
    const { first, answer, variables, expected, again, second } = rerun;
    // An image built from an older docker/ than this tree's is a true difference, and not this test's business.
    expect(answer.differences.filter((d) => !d.startsWith('desktop image: built from'))).toEqual([]);
    expect(variables.split(' ')).toEqual(expect.arrayContaining([`DESKBENCH_AGENT=${WEAKENED_FROM_ONE_DESKTOP}`, `DESKBENCH_RESULTS=${rerunResults}`]));
    expect(answer.commands).toEqual([expected]);
    expect(again?.stdout, again?.stderr.slice(-3000)).toContain('deskbench results');
    const fixed = ({ recordedAt, runId, ...rest }: RunRecord) => rest;
    expect(second!.runId).not.toBe(first.runId);
    expect(fixed(second!)).toEqual(fixed(first));
  });
});

/** A browser in a desktop on a busy machine: polls wait this long (not a speed target). */
const WAIT = { timeout: 15_000 };
