// The repeats option: each task's pass rate over its runs and the flaky tasks, in report.json, the console table and
// the HTML report; and one generated test per run, as `vitest list` shows them.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { writeFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { type TaskRecord, buildReport, formatReport } from '../../src/node/report/aggregate.ts';
import { writeHtmlReport } from '../../src/node/report/html.ts';
import { listTests, vitestCli } from '../plugin/run-vitest.ts';

const record = (over: Partial<TaskRecord>): TaskRecord => ({
  id: 'x', name: 'x', domain: 'os', format: 'osworld', tags: ['os'], testState: 'passed', state: 'success',
  score: 1, steps: 2, durationMs: 1000, evalError: null, error: null, resultDir: null, ...over,
});

describe('repeats in the report', () => {
  // Task a passes 3 of 3, b passes 1 of 3 (flaky), c breaks twice and fails once with a score.
  const records = [
    ...[1, 2, 3].map((repeat) => record({ id: 'a', repeat })),
    record({ id: 'b', repeat: 1, score: 1 }),
    record({ id: 'b', repeat: 2, score: 0, testState: 'failed', state: 'fail' }),
    record({ id: 'b', repeat: 3, score: 0.5, testState: 'failed' }),
    record({ id: 'c', repeat: 1, score: null, testState: 'failed', state: 'SETUP_ERROR', error: 'x' }),
    record({ id: 'c', repeat: 2, score: null, testState: 'failed', state: 'TIMED_OUT', error: 'x' }),
    record({ id: 'c', repeat: 3, score: 0, testState: 'failed', state: 'fail' }),
  ];

  test('report.json: pass rate and mean score per task, flaky = passed in some runs and failed in others', () => {
    const report = buildReport([...records].reverse());
    expect(report.repeats).toEqual({
      runsPerTask: 3,
      flaky: 1,
      tasks: [
        { id: 'a', domain: 'os', runs: 3, passed: 3, passRate: 100, meanScore: 1, flaky: false },
        { id: 'b', domain: 'os', runs: 3, passed: 1, passRate: 33.33, meanScore: 0.5, flaky: true },
        { id: 'c', domain: 'os', runs: 3, passed: 0, passRate: 0, meanScore: 0, flaky: false },
      ],
    });
    // The runs in order within each task.
    expect(report.tasks.map((t) => `${t.id}${t.repeat}`)).toEqual(['a1', 'a2', 'a3', 'b1', 'b2', 'b3', 'c1', 'c2', 'c3']);
    // Without repeats there is no such section.
    expect(buildReport([record({})]).repeats).toBeUndefined();
  });

  test('the console table lists every task with its pass rate and marks the flaky ones', () => {
    const table = formatReport(buildReport(records));
    expect(table).toContain('Each task ran 3 times: the rows above count runs.');
    expect(table).toContain('Repeats: 3 runs per task; 1 of 3 tasks flaky (passed in some runs, failed in others)');
    expect(table).toMatch(/^os\/b\s+3\s+1\s+33\.33\s+0\.50\s+flaky$/m);
    expect(table).toMatch(/^os\/a\s+3\s+3\s+100\.00\s+1\.00$/m);
  });

  test('the HTML report: a repeats table, and one page per run', () => {
    const dir = mkdtempSync(join(tmpdir(), 'deskbench-repeats-'));
    writeHtmlReport(buildReport(records), dir);
    const index = readFileSync(join(dir, 'index.html'), 'utf8');
    expect(index).toContain('3 runs per task · <b>1 of 3 tasks flaky</b>');
    expect(index).toMatch(/<tr><td>os\/b<\/td><td class="num">3<\/td><td class="num">1<\/td><td class="num">33\.33<\/td><td class="num">0\.50<\/td><td><span class="fail">flaky<\/span><\/td><\/tr>/);
    expect(index).toContain('href="tasks/os__b__run-2.html"');
    expect(readFileSync(join(dir, 'tasks', 'os__b__run-2.html'), 'utf8')).toContain('<h1>os / b (run 2)</h1>');
  });
});

describe('the repeats option', () => {
  const PLUGIN = resolve(import.meta.dirname, '../../src/node/plugin/index.ts');
  const TASK = resolve(import.meta.dirname, '../../fixtures/tasks/runner/examples/os/7d1f0a52-3c5e-4e8b-9a61-000000000001.json');
  const project = (options: string) => {
    const root = mkdtempSync(join(tmpdir(), 'deskbench-repeats-project-'));
    writeFileSync(join(root, 'vitest.config.ts'), `import { deskbench } from ${JSON.stringify(PLUGIN)};\nexport default { plugins: [deskbench(${options})] };\n`);
    return root;
  };

  test('one test per run, named by its run', async () => {
    const tests = await listTests(project(`{ tasks: ${JSON.stringify(TASK)}, repeats: 3 }`));
    expect(tests.map((t) => t.name.replace(/^.*\[/, '['))).toEqual(['[run 1/3]', '[run 2/3]', '[run 3/3]']);
    expect(new Set(tests.map((t) => t.file))).toEqual(new Set([TASK]));
  }, 120_000);

  test('a repeats value that is not a whole number of runs stops the run with the option named', async () => {
    const run = await vitestCli(project(`{ tasks: ${JSON.stringify(TASK)}, repeats: 0 }`), ['list']);
    expect(run.code).not.toBe(0);
    expect(run.stdout + run.stderr).toContain('deskbench(): invalid option repeats');
  }, 120_000);
});
