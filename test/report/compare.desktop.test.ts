// deskbench compare end to end, in desktop containers, one at a time per run (fixtures/examples-one-desktop): five
// examples (the two os tasks, one of them infeasible; chrome; the two GUI-OS tasks) run with the scripted agent and
// with the weakened one, which gives up on the os and terminal domains. Its flips, rates and intervals are checked
// against values computed by hand; the compare page is opened offline in headless Chromium; and `deskbench rerun` on a
// one-task run prints a command that reproduces the run record. The three runs are independent and start at once
// (each mostly waits on its one desktop): the file takes about as long as its longest run, not their sum.
// The weakened agent answers DONE at once on the three tasks it gives up on, leaving their desktops untouched: those
// runs are where the os and terminal examples show that no evaluator passes an untouched desktop
// (test/examples/examples.desktop.test.ts runs the noop agent on the other examples).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { desktopImage } from '../../src/desktop/image.ts';
import type { RunReport } from '../../src/node/report/aggregate.ts';
import type { Comparison } from '../../src/node/report/compare/compare.ts';
import type { RunRecord } from '../../src/node/report/run-record.ts';
import { runChild, shapingVariables } from '../helpers/child-run.ts';
import { withPageInChrome } from '../helpers/pages-in-chrome.ts';
import { vitestCli } from '../plugin/run-vitest.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const PROJECT = join(ROOT, 'fixtures/examples-one-desktop');
const FILTERS = ['osworld/os/', 'osworld/chrome/', 'guios/'];
const WEAKENED = '../../examples/agents/weakened.ts';
const ID = { rename: 'd9fc88b4-5748-49db-9cac-7fd9390a6004', backlight: 'ef29a905-1221-4b04-89cb-36fb403ddace', chrome: 'be1a5909-d660-49ed-bddc-a56ec676909b', gedit: 'c1ca8559-b4cf-4739-870a-01a1e2a18445', terminal: 'ffe43a0f-c906-437f-9b60-08ff978d8d18' };

const deskbench = (args: string[], cwd: string) => runChild(process.execPath, [join(ROOT, 'bin/deskbench.js'), ...args], { cwd });
const readReport = async (dir: string) => JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as RunReport;

async function examples(results: string, agent: string | undefined, filters: string[]) {
  const run = await vitestCli(PROJECT, ['run', ...filters], { DESKBENCH_RESULTS: results, ...(agent ? { DESKBENCH_AGENT: agent } : {}) });
  expect(run.stdout, run.stderr.slice(-3000)).toContain('deskbench results');
  return run;
}

const hasImage = spawnSync('docker', ['image', 'inspect', desktopImage()], { stdio: 'ignore' }).status === 0;

let base: string;
let weakenedRun: Awaited<ReturnType<typeof examples>>;
/** The results folder of the weakened agent's one-task run that `deskbench rerun` reproduces. */
let rerunResults: string;

// The three runs at once: the scripted and the weakened run of the five examples, and the one-task run for rerun.
beforeAll(async () => {
  if (!hasImage) return;
  base = await mkdtemp(join(tmpdir(), 'deskbench-compare-desktop-'));
  rerunResults = join(await mkdtemp(join(tmpdir(), 'deskbench-rerun-desktop-')), 'results');
  [, weakenedRun] = await Promise.all([
    examples(join(base, 'scripted'), undefined, FILTERS),
    examples(join(base, 'weakened'), WEAKENED, FILTERS),
    examples(rerunResults, WEAKENED, [`osworld/os/${ID.rename}`]),
  ]);
}, 900_000);

describe.skipIf(!hasImage)('deskbench compare: the scripted agent against a weakened one, on five examples', () => {
  let comparison: Comparison;
  beforeAll(async () => {
    const compared = await deskbench(['compare', 'scripted', 'weakened', '--out', 'compare'], base);
    expect(compared.code, compared.stderr).toBe(0);
    comparison = JSON.parse(await readFile(join(base, 'compare', 'compare.json'), 'utf8'));
  });

  test('flips, rates, differences and intervals as computed by hand', () => {
    expect(comparison.notComparable).toEqual([]);
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
    const report = await readReport(join(base, 'weakened'));
    expect(report.intervals?.total).toEqual({ rate: 40, low: 0, high: 80, tasks: 5 });
    expect(weakenedRun.stdout).toContain('Overall rate 40.00% (95% interval 0.00–80.00%): percentile bootstrap over 5 tasks, 2000 resamples, seed 1.');
    // The three tasks it gave up on (DONE at once, the desktop as the setup left it) each fail with a score of 0 and
    // no error, as every other example does with the noop agent (test/examples/examples.desktop.test.ts).
    const gaveUp = report.tasks.filter((task) => task.domain === 'os' || task.domain === 'terminal');
    expect(gaveUp.map(({ id, testState, state, score, error, evalError }) => ({ id, testState, state, score, error, evalError })).sort((a, b) => a.id.localeCompare(b.id))).toEqual(
      [ID.backlight, ID.rename, ID.terminal].sort().map((id) => ({ id, testState: 'failed', state: 'success', score: 0, error: null, evalError: null })),
    );
    expect(weakenedRun.stdout + weakenedRun.stderr).toContain('score 0 is below the pass threshold 1');
    const run = report.run!;
    const moduleSha256 = createHash('sha256').update(await readFile(join(ROOT, 'examples/agents/weakened.ts'))).digest('hex');
    expect(run.agents).toEqual([{ name: 'weakened', module: WEAKENED, moduleSha256, description: { strategy: 'replays the solution, except in the domains it gives up on', giveUpOn: ['os', 'terminal'] } }]);
    expect(run.command).toMatchObject({ program: 'vitest', args: ['run', ...FILTERS], cwd: PROJECT, env: { DESKBENCH_AGENT: WEAKENED, DESKBENCH_RESULTS: join(base, 'weakened') } });
    expect(run.options).toMatchObject({ tasks: '../../examples', agent: 'scripted', maxSteps: 15, observationType: 'screenshot', pauseAfterAction: 0.5, desktop: { provider: 'docker', warm: 0 } });
    const [id, label] = spawnSync('docker', ['image', 'inspect', desktopImage(), '--format', '{{.Id}} {{index .Config.Labels "deskbench.hash"}}'], { encoding: 'utf8' }).stdout.trim().split(' ');
    expect(run.images).toEqual([{ image: desktopImage(), imageId: id, buildHash: label }]);
    const rename = join(ROOT, 'examples/osworld/os', `${ID.rename}.json`);
    expect(run.taskFiles[relative(PROJECT, rename)]).toBe(createHash('sha256').update(await readFile(rename)).digest('hex'));
    expect(Object.keys(run.taskFiles)).toHaveLength(5);
    // The examples live in deskbench's own checkout: their corpus commit is deskbench's.
    expect(run.corpora.map((corpus) => corpus.commit)).toEqual([run.deskbench.commit]);
  });

  test('the compare page opens offline in headless Chromium with both final screens of every task', async () => {
    // The three folders copied into a desktop as they are side by side here, and opened from disk: no network.
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

describe.skipIf(!hasImage)('deskbench rerun on a run of the examples', () => {
  test('its command, run in the same tree, gives a report whose record matches field for field but date and id', { timeout: 600_000 }, async () => {
    const results = rerunResults;
    const first = (await readReport(results)).run!;
    const printed = await deskbench(['rerun', results, '--json'], dirname(results));
    const { cwd, commands, differences } = JSON.parse(printed.stdout) as { cwd: string; commands: string[]; differences: string[] };
    // An image built from an older docker/ than this tree's is a true difference, and not this test's business.
    expect(differences.filter((d) => !d.startsWith('desktop image: built from'))).toEqual([]);
    // What the child inherits (DESKBENCH_IMAGE, DOCKER_HOST when the tests run with them set) shapes the run too.
    const variables = shapingVariables({ DESKBENCH_AGENT: WEAKENED, DESKBENCH_RESULTS: results });
    expect(variables.split(' ')).toEqual(expect.arrayContaining([`DESKBENCH_AGENT=${WEAKENED}`, `DESKBENCH_RESULTS=${results}`]));
    expect(commands).toEqual([`${variables} npx vitest run osworld/os/${ID.rename}`]);
    const again = await runChild('bash', ['-c', commands[0]], { cwd, env: { NO_COLOR: '1', DESKBENCH_AGENT: undefined, DESKBENCH_RESULTS: undefined } });
    expect(again.stdout, again.stderr.slice(-3000)).toContain('deskbench results');
    const second = (await readReport(results)).run!;
    const fixed = ({ recordedAt, runId, ...rest }: RunRecord) => rest;
    expect(second.runId).not.toBe(first.runId);
    expect(fixed(second)).toEqual(fixed(first));
  });
});

/** A browser in a desktop on a busy machine: polls wait this long (not a speed target). */
const WAIT = { timeout: 15_000 };
