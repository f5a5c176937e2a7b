// The reports as users get them: one run of the fixture tasks with the noop agent (each task's verdict, vitest's json
// and JUnit reports, report.json, no container left), the same tasks as two shards merged with vitest's blob reports,
// and the HTML report opened in a real headless browser (Debian's Chromium inside a desktop container, driven by
// playwright-core over CDP). The runner's other runs of these tasks: test/runner/lifecycle.desktop.test.ts.
// The single run and the two shards are independent and start at once (each mostly waits while its desktops start);
// the merge runs once both shards are done.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, readdir, readFile } from 'node:fs/promises';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, test } from 'vitest';
import type { RunReport } from '../../src/node/report/aggregate.ts';
import { childRunId } from '../helpers/child-run.ts';
import { withPageInChrome } from '../helpers/pages-in-chrome.ts';
import { vitestCli } from '../plugin/run-vitest.ts';

const PROJECT = resolve(import.meta.dirname, '../../fixtures/runner-project');

async function run(args: string[], resultsDir: string, runId: string) {
  return vitestCli(PROJECT, args, { DESKBENCH_RESULTS: resultsDir, DESKBENCH_FIXTURE_AGENT: 'noop', DESKBENCH_RUN_ID: runId });
}

interface JsonReport {
  testResults: { name: string; assertionResults: { status: string; failureMessages: string[] }[] }[];
}

const readReport = async (dir: string) => JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as RunReport;
const comparable = (report: RunReport) => ({
  total: { ...report.total, seconds: undefined },
  byDomain: Object.fromEntries(Object.entries(report.byDomain).map(([k, s]) => [k, { ...s, seconds: undefined }])),
  byTag: Object.fromEntries(Object.entries(report.byTag).map(([k, s]) => [k, { ...s, seconds: undefined }])),
  tasks: report.tasks.map((t) => ({ id: t.id, score: t.score, testState: t.testState, state: t.state })),
});

describe('reports', () => {
  let base: string;
  let single: string;
  let singleRun: { code: number; stdout: string; runId: string };
  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'deskbench-report-'));
    single = join(base, 'single');
    const runId = childRunId('report');
    const reporters = ['--reporter=default', '--reporter=json', `--outputFile.json=${join(base, 'vitest.json')}`, '--reporter=junit', `--outputFile.junit=${join(base, 'junit.xml')}`];
    const [singleDone] = await Promise.all([
      run(['run', ...reporters], single, runId),
      // The shards for the merge test below.
      ...['1/2', '2/2'].map((shard) =>
        run(['run', `--shard=${shard}`, '--reporter=blob', `--outputFile=${join(base, 'blobs', `blob-${shard.replace('/', '-')}.json`)}`], join(base, `shard-${shard[0]}`), childRunId('report')),
      ),
    ]);
    singleRun = { ...singleDone, runId };
    expect(singleRun.stdout).toContain('deskbench results');
  }, 300_000);

  test('each task gets the verdict its evaluator gives, in vitest\'s json and JUnit reports too; no container is left', async () => {
    expect(singleRun.code).toBe(1);
    const json = JSON.parse(await readFile(join(base, 'vitest.json'), 'utf8')) as JsonReport;
    const byTask = new Map(json.testResults.map((r) => [basename(r.name, '.json').slice(-2), r.assertionResults[0]]));
    expect(byTask.get('01')?.status).toBe('passed'); // the initial state already satisfies it
    expect(byTask.get('02')?.status).toBe('failed');
    // The failure says what the metric compared, not only the score.
    expect(byTask.get('02')?.failureMessages[0]).toMatch(/score 0 is below the pass threshold 1 .*\nexact_match scored 0\n {2}result "", expected \{"expected":"finished\\n"\}/);
    // JUnit carries score, state, steps and the results folder of every task, the passing ones too.
    const xml = await readFile(join(base, 'junit.xml'), 'utf8');
    expect(xml.match(/<property name="deskbench.score" value="[^"]+">/g)).toHaveLength(4);
    expect(xml).toMatch(/<testcase [^>]*name="os\/7d1f0a52-3c5e-4e8b-9a61-000000000001[^"]*"[^>]*>\s*<properties>[\s\S]*?<property name="deskbench.score" value="1">[\s\S]*?<property name="deskbench.state" value="success">[\s\S]*?<property name="deskbench.steps" value="1">[\s\S]*?<property name="deskbench.results" value="\/[^"]+7d1f0a52-3c5e-4e8b-9a61-000000000001">/);
    const report = await readReport(single);
    const scoreOf = (suffix: string) => report.tasks.find((t) => t.id.endsWith(suffix))?.score;
    // 03: mean of check_include_exclude (1) and fuzz.ratio("hello world", "hello there") = 2·7/22 → (1 + 14/22) / 2.
    expect(scoreOf('03')).toBeCloseTo((1 + 14 / 22) / 2, 12);
    expect(scoreOf('04')).toBe(0); // infeasible: the noop agent says DONE, not FAIL
    const { stdout } = await promisify(execFile)('docker', ['ps', '-a', '-q', '--filter', `label=deskbench.run=${singleRun.runId}`]);
    expect(stdout.trim()).toBe('');
  });

  test('the run prints the table and writes report.json with both rates', async () => {
    const report = await readReport(single);
    expect(report.total).toMatchObject({ tasks: 4, passed: 1, scored: 4 });
    // Σ scores = 1 + 0 + (1 + 14/22)/2 + 0 over 4 tasks, all of which produced a result.
    const expected = Math.round(((1 + (1 + 14 / 22) / 2) / 4) * 10000) / 100;
    expect(report.total.osworldRate).toBe(expected);
    expect(report.total.overallRate).toBe(expected);
    expect(report.byTag.infeasible).toMatchObject({ tasks: 1, passed: 0 });
  });

  test('two shards merged with --merge-reports give the same numbers as one run', async () => {
    const sharded = join(base, 'sharded');
    const blobs = join(base, 'blobs');
    expect((await readdir(blobs)).sort()).toEqual(['blob-1-2.json', 'blob-2-2.json']);
    // Each shard writes a report of its own name, so shards sharing one results folder never overwrite each other.
    expect((await readdir(join(base, 'shard-1'))).filter((name) => /^(report|index)/.test(name)).sort()).toEqual(['index-shard-1-of-2.html', 'report-shard-1-of-2.json']);
    // The shards' result folders gathered in one place, as CI artifacts would be, then merged there.
    for (const shard of ['shard-1', 'shard-2']) await cp(join(base, shard, 'pyautogui'), join(sharded, 'pyautogui'), { recursive: true });
    const merged = await run([`--merge-reports=${blobs}`], sharded, childRunId('report'));
    expect(merged.stdout).toContain('deskbench results');
    const report = await readReport(sharded);
    expect(comparable(report)).toEqual(comparable(await readReport(single)));
    // Result folders are stored relative to the results folder, so the merged pages find every screenshot.
    for (const task of report.tasks) expect(task.resultDir).toMatch(/^pyautogui\/screenshot\/noop\/os\//);
    const pages = (await readdir(join(sharded, 'tasks'))).filter((name) => name.endsWith('.html'));
    expect(pages.length).toBe(4);
    for (const page of pages) {
      const html = await readFile(join(sharded, 'tasks', page), 'utf8');
      const images = [...html.matchAll(/<img [^>]*src="([^"]+)"/g)].map((match) => match[1]);
      expect(images.length, page).toBeGreaterThan(0);
      for (const src of images) expect(existsSync(resolve(join(sharded, 'tasks'), src)), `${page}: ${src}`).toBe(true);
    }
  }, 300_000); // the merge, a vitest run of its own

  test('the HTML report opens offline in headless Chromium: filter by domain and tag, open a task', async () => {
    // The results folder copied into a desktop and opened from disk: no server, no network.
    await withPageInChrome(single, '/home/user/report', 'index.html', async (page) => {
      await expect.poll(() => page.locator('#tasks tbody tr:not([hidden])').count(), WAIT).toBe(4);
      // Each row's final screen loads as a thumbnail from the copied folder.
      await expect.poll(() => page.locator('img.row-thumb').first().evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), WAIT).toBe(1920);
      expect(await page.locator('img.row-thumb').count()).toBe(4);
      await page.selectOption('#tag', 'infeasible');
      await expect.poll(() => page.locator('#tasks tbody tr:not([hidden])').count(), WAIT).toBe(1);
      await page.selectOption('#tag', '');
      await page.fill('#search', 'greeting');
      await expect.poll(() => page.locator('#tasks tbody tr:not([hidden])').count(), WAIT).toBe(1);
      // The task's own link (the row's final-screen thumbnail links to the same page).
      await page.locator('#tasks tbody tr:not([hidden]) td:nth-child(2) a').click();
      await expect.poll(() => page.locator('#instruction').textContent(), WAIT).toContain('Make ~/Desktop/greeting.txt say: hello there');
      // The trajectory's screenshot is linked relatively and loads from the copied folder.
      const loaded = await page.locator('.step img').first().evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth);
      expect(loaded).toBe(1920);
      const shot = await page.screenshot();
      expect(shot.subarray(1, 4).toString()).toBe('PNG');
    });
  });
});

/** A browser in a desktop on a busy machine: polls wait this long (not a speed target). */
const WAIT = { timeout: 15_000 };
