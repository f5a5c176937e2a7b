// deskbench compare on report.json files written here: what is comparable and why not, flips, differences and their
// verdicts, pass@k with repeats, the settings that differ, the HTML page's rows, bad input, and the exit codes.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { type RunReport, type TaskRecord, buildReport } from '../../src/node/report/aggregate.ts';
import { compareRuns } from '../../src/node/report/compare/compare.ts';
import { formatComparison } from '../../src/node/report/compare/format.ts';
import { writeComparisonPage } from '../../src/node/report/compare/html.ts';
import { loadRun } from '../../src/node/report/compare/load.ts';
import { writeHtmlReport } from '../../src/node/report/html.ts';
import type { RunRecord } from '../../src/node/report/run-record.ts';
import { runChild } from '../helpers/child-run.ts';

const ROOT = resolve(import.meta.dirname, '../..');

const record = (over: Partial<TaskRecord>): TaskRecord => ({
  id: 'x', name: 'x', domain: 'os', format: 'osworld', tags: ['os'], testState: 'passed', state: 'success',
  score: 1, steps: 2, durationMs: 1000, evalError: null, error: null, resultDir: null, taskSha256: 'aaa', ...over,
});
const passed = (id: string, over: Partial<TaskRecord> = {}) => record({ id, ...over });
const failed = (id: string, over: Partial<TaskRecord> = {}) => record({ id, score: 0, testState: 'failed', ...over });

/** A results folder holding report.json (and, with `withPages`, the HTML report and a final screen per task). */
function runFolder(base: string, name: string, records: TaskRecord[], run?: Partial<RunRecord>, withPages = false): string {
  const dir = join(base, name);
  mkdirSync(dir, { recursive: true });
  const withDirs = records.map((r) => ({ ...r, resultDir: `pyautogui/screenshot/${name}/${r.domain}/${r.id}${r.repeat ? `-${r.repeat}` : ''}` }));
  if (withPages) {
    for (const r of withDirs) {
      mkdirSync(join(dir, r.resultDir), { recursive: true });
      writeFileSync(join(dir, r.resultDir, 'final.png'), 'png');
    }
  }
  const report: RunReport = { ...buildReport(withDirs), ...(run ? { run: run as RunRecord } : {}) };
  writeFileSync(join(dir, 'report.json'), JSON.stringify(report));
  if (withPages) writeHtmlReport(report, dir);
  return dir;
}

describe('what is compared', () => {
  const base = mkdtempSync(join(tmpdir(), 'deskbench-compare-'));
  const image = (id: string) => ({ image: 'deskbench/desktop:latest', imageId: id, versions: {} });
  const a = runFolder(base, 'a', [
    passed('t1'), passed('t2'), failed('t3'), passed('t4', { domain: 'chrome', tags: ['chrome'] }),
    passed('gone'), passed('edited', { taskSha256: 'old' }), passed('moved', { desktop: image('sha256:1') }), passed('fetched'),
  ]);
  const b = runFolder(base, 'b', [
    failed('t1'), passed('t2'), passed('t3'), failed('t4', { domain: 'chrome', tags: ['chrome'], score: null, state: 'SETUP_ERROR' }),
    passed('new'), passed('edited', { taskSha256: 'new' }), passed('moved', { desktop: image('sha256:2') }),
    failed('fetched', { score: null, state: 'SETUP_ERROR', infraError: 'DESKBENCH_FILE_CHANGED' }),
  ]);
  const comparison = compareRuns([loadRun(a), loadRun(b)], { now: new Date('2026-11-27T00:00:00Z') });

  test('tasks missing in a run, from another task file, on another image or broken by the infrastructure are listed, not compared', () => {
    expect(comparison.notComparable.map((t) => `${t.id}: ${t.reason}`)).toEqual([
      'edited: task file differs: A old, B new',
      'fetched: infrastructure error: B DESKBENCH_FILE_CHANGED',
      'gone: missing in B',
      'moved: different desktop image: A 1, B 2',
      'new: missing in A',
    ]);
    expect(comparison.tasks.map((t) => t.id)).toEqual(['t4', 't1', 't2', 't3']);
    // One agent on two desktops: with ignoreImage the task on another image is compared.
    expect(compareRuns([loadRun(a), loadRun(b)], { ignoreImage: true }).tasks.map((t) => t.id)).toContain('moved');
  });

  test('flips per task, and per group the rates, the paired difference and the fixed/broken counts', () => {
    expect(comparison.tasks.map((t) => `${t.domain}/${t.id} ${t.flips[0]}`)).toEqual(['chrome/t4 broken', 'os/t1 broken', 'os/t2 null', 'os/t3 fixed']);
    // A: 3 of 4, B: 2 of 4 (t4 broke before a score: it counts 0). Differences per task −1, −1, 0, +1: all four
    // resampled at −1 has the chance 1/16 (above 2.5%), a sum of +2 or more 19/256, of +3 or more 5/256 (below).
    expect(comparison.total.rates.map((r) => r.rate)).toEqual([75, 50]);
    expect(comparison.total.differences).toEqual([{ run: 'B', difference: -25, low: -100, high: 50, verdict: 'too few tasks', fixed: 1, broken: 2 }]);
    // One task that flipped: its interval is a single point, which is no evidence; groups under 5 tasks get no verdict.
    expect(comparison.byDomain.chrome.differences[0]).toMatchObject({ difference: -100, low: -100, high: -100, verdict: 'too few tasks', fixed: 0, broken: 1 });
    expect(Object.keys(comparison.byTag)).toEqual(['chrome', 'os']);
  });

  test('the console: runs, rates with intervals, the verdict, flips and every task by domain', () => {
    const text = formatComparison(comparison);
    expect(text).toContain('deskbench compare: 2 runs, 4 tasks compared, 5 not comparable (listed at the end)');
    expect(text).toMatch(/^all tasks\s+4\s+75\.00 \[25\.00, 100\.00\]\s+50\.00 \[0\.00, 100\.00\]\s+-25\.00 \[-100\.00, 50\.00\]\s+1\s+2$/m);
    expect(text).toContain('B against A: too few tasks to tell, under 5 (-25.00 points, 95% interval -100.00 to +50.00); 1 fixed, 2 broken by B');
    expect(text).toMatch(/^ {2}broken\s+chrome\/t4\s+A 1\.00 pass\s+B 0\.00 SETUP_ERROR$/m);
    expect(text).toMatch(/^ {2}t3\s+0\.00 fail\s+1\.00 pass\s+fixed\s+os$/m);
    expect(text).toContain('  os/moved: different desktop image: A 1, B 2');
  });
});

describe('verdicts, repeats and settings', () => {
  test('"better" and "worse" only when the interval of the difference excludes 0', () => {
    const base = mkdtempSync(join(tmpdir(), 'deskbench-compare-verdict-'));
    const ids = Array.from({ length: 12 }, (_, i) => `t${i}`);
    const all = runFolder(base, 'all', ids.map((id) => passed(id)));
    // 8 of 12 broken: the chance a resample of 12 holds none of them is (4/12)^12, far below 2.5%.
    const weak = runFolder(base, 'weak', ids.map((id, i) => (i < 8 ? failed(id) : passed(id))));
    const [worse] = compareRuns([loadRun(all), loadRun(weak)]).total.differences;
    expect(worse).toMatchObject({ verdict: 'worse', broken: 8 });
    expect(worse.high).toBeLessThan(0);
    const [better] = compareRuns([loadRun(weak), loadRun(all)]).total.differences;
    expect(better).toMatchObject({ verdict: 'better', fixed: 8 });
    expect(formatComparison(compareRuns([loadRun(weak), loadRun(all)]))).toContain('B against A: B is better (+66.67 points');
  });

  test('with repeats: pass rates per task, flips by pass rate, pass@k and pass^k', () => {
    const base = mkdtempSync(join(tmpdir(), 'deskbench-compare-repeats-'));
    const runs = (id: string, outcomes: boolean[]) => outcomes.map((ok, i) => (ok ? passed(id, { repeat: i + 1 }) : failed(id, { repeat: i + 1 })));
    const a = runFolder(base, 'a', [...runs('t1', [true, true]), ...runs('t2', [true, false])]);
    const b = runFolder(base, 'b', [...runs('t1', [true, false]), ...runs('t2', [true, true])]);
    const comparison = compareRuns([loadRun(a), loadRun(b)]);
    expect(comparison.method.over).toBe('tasks and runs within a task');
    expect(comparison.tasks.map((t) => [t.id, t.runs.map((r) => `${r.passed}/${r.runs}`), t.flips[0]])).toEqual([
      ['t1', ['2/2', '1/2'], 'broken'],
      ['t2', ['1/2', '2/2'], 'fixed'],
    ]);
    // Each run: one task passing 2 of 2, one 1 of 2. pass@2 = (1 + 1) / 2; pass^2 = (1 + 0) / 2.
    expect(comparison.total.passAtK).toEqual([
      { k: 1, passAt: [75, 75], passHat: [75, 75] },
      { k: 2, passAt: [100, 100], passHat: [50, 50] },
    ]);
    expect(formatComparison(comparison)).toMatch(/^2\s+100\.00\s+100\.00\s+50\.00\s+50\.00$/m);
  });

  test('settings of the run records that differ are named; resultsDir is not a setting', () => {
    const base = mkdtempSync(join(tmpdir(), 'deskbench-compare-settings-'));
    const run = (agent: string, maxSteps: number, resultsDir: string): Partial<RunRecord> => ({
      deskbench: { version: '0.1.0', commit: 'c0ffee', modified: [] },
      agents: [{ name: agent, module: `builtin:${agent}` }],
      images: [{ image: 'deskbench/desktop:latest', imageId: 'sha256:1' }],
      options: { maxSteps, resultsDir, observationType: 'screenshot' },
    });
    const a = runFolder(base, 'a', [passed('t1')], run('scripted', 15, 'a'));
    const b = runFolder(base, 'b', [failed('t1')], run('noop', 30, 'b'));
    expect(compareRuns([loadRun(a), loadRun(b)]).settingsThatDiffer).toEqual([
      { setting: 'agent', values: ['scripted (builtin:scripted)', 'noop (builtin:noop)'] },
      { setting: 'option maxSteps', values: ['15', '30'] },
    ]);
  });
});

describe('the HTML page', () => {
  test('one row per task with each run’s final screen side by side, linked to that run’s trajectory page', () => {
    const base = mkdtempSync(join(tmpdir(), 'deskbench-compare-html-'));
    const a = runFolder(base, 'a', [passed('t1'), passed('t2')], undefined, true);
    const b = runFolder(base, 'b', [failed('t1'), passed('t2')], undefined, true);
    const page = readFileSync(writeComparisonPage(compareRuns([loadRun(a), loadRun(b)]), join(base, 'compare')), 'utf8');
    const row = page.match(/<tr class="broken" data-id="t1"[\s\S]*?<\/tr>/)?.[0] ?? '';
    expect(row).toContain('<a href="../a/tasks/os__t1.html"><img class="final" loading="lazy" alt="final screen" src="../a/pyautogui/screenshot/a/os/t1/final.png"></a>');
    expect(row).toContain('<a href="../b/tasks/os__t1.html"><img class="final" loading="lazy" alt="final screen" src="../b/pyautogui/screenshot/b/os/t1/final.png"></a>');
    expect(row).toContain('<td class="flip">broken by B</td>');
    expect(page.match(/<img class="final"/g)).toHaveLength(4);
    expect(page).toContain('<a href="../a/index.html">a</a>');
    expect(page).toContain('B against A: <span class="">too few tasks to tell, under 5</span>');
  });
});

describe('bad input and exit codes', () => {
  const base = mkdtempSync(join(tmpdir(), 'deskbench-compare-cli-'));
  const deskbench = (args: string[]) => runChild(process.execPath, [join(ROOT, 'bin/deskbench.js'), 'compare', ...args], { cwd: base });

  test('a report with a wrong field names the file and the field; shard reports get the merge hint', () => {
    const broken = join(base, 'broken');
    mkdirSync(broken);
    writeFileSync(join(broken, 'report.json'), JSON.stringify({ generatedAt: 'x', tasks: [{ ...record({ id: 't1' }), score: 'high' }] }));
    expect(() => loadRun(broken)).toThrow(expect.objectContaining({ code: 'DESKBENCH_RUN_REPORT', message: expect.stringContaining(`${join(broken, 'report.json')} at tasks[0].score: Invalid input: expected number, received string`) }));
    const shards = join(base, 'shards');
    mkdirSync(shards);
    writeFileSync(join(shards, 'report-shard-1-of-2.json'), '{}');
    expect(() => loadRun(shards)).toThrow(/no report\.json in this folder\. It has shard reports \(report-shard-1-of-2\.json\): merge the shards first with `npx vitest --merge-reports`/);
  });

  test('exit 2 on one folder or an unreadable one; --fail-if-worse exits 1 when B is worse, 0 otherwise', async () => {
    const one = await deskbench([join(base, 'nope')]);
    expect(one.code).toBe(2);
    expect(one.stderr).toContain('expected at least two results folders (got 1)');
    const ids = Array.from({ length: 12 }, (_, i) => `t${i}`);
    const all = runFolder(base, 'all', ids.map((id) => passed(id)));
    const weak = runFolder(base, 'weak', ids.map((id, i) => (i < 8 ? failed(id) : passed(id))));
    const missing = await deskbench([all, join(base, 'nope')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('nope: no such results folder or report file');
    expect((await deskbench([all, weak, '--fail-if-worse', '--out', 'c1'])).code).toBe(1);
    const fine = await deskbench([weak, all, '--fail-if-worse', '--out', 'c2', '--json']);
    expect(fine.code).toBe(0);
    expect(JSON.parse(fine.stdout).total.differences[0].verdict).toBe('better');
    expect(JSON.parse(readFileSync(join(base, 'c2', 'compare.json'), 'utf8')).total.tasks).toBe(12);
  });
});
