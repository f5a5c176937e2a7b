// The repeats option on a real run: task 01 (passes with any agent) twice, each run in its own results folder, and
// the report's pass rate over the runs in report.json, the console table and the HTML report.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from 'vitest';
import type { RunReport } from '../../src/node/report/aggregate.ts';
import { childRunId } from '../helpers/child-run.ts';
import { vitestCli } from '../plugin/run-vitest.ts';

const PROJECT = resolve(import.meta.dirname, '../../fixtures/runner-project');

test('each task runs N times: one folder per run, its pass rate over the runs in every report', async () => {
  const results = await mkdtemp(join(tmpdir(), 'deskbench-repeats-'));
  const run = await vitestCli(PROJECT, ['run', '000000000001'], { DESKBENCH_RESULTS: results, DESKBENCH_FIXTURE_AGENT: 'noop', DESKBENCH_REPEATS: '2', DESKBENCH_RUN_ID: childRunId('repeats') });
  expect(run.code, run.stdout + run.stderr).toBe(0);
  expect(run.stdout).toMatch(/\[run 1\/2\]/);
  expect(run.stdout).toMatch(/\[run 2\/2\]/);
  expect(run.stdout).toContain('Repeats: 2 runs per task; 0 of 1 tasks flaky');
  expect(run.stdout).toMatch(/^os\/7d1f0a52-3c5e-4e8b-9a61-000000000001\s+2\s+2\s+100\.00\s+1\.00$/m);

  const report = JSON.parse(await readFile(join(results, 'report.json'), 'utf8')) as RunReport;
  expect(report.repeats).toEqual({
    runsPerTask: 2,
    flaky: 0,
    tasks: [{ id: '7d1f0a52-3c5e-4e8b-9a61-000000000001', domain: 'os', runs: 2, passed: 2, passRate: 100, meanScore: 1, flaky: false }],
  });
  // Each run in OSWorld's layout under its own folder, so neither overwrites the other.
  expect(report.tasks.map((t) => [t.repeat, t.resultDir])).toEqual([
    [1, 'run-1/pyautogui/screenshot/noop/os/7d1f0a52-3c5e-4e8b-9a61-000000000001'],
    [2, 'run-2/pyautogui/screenshot/noop/os/7d1f0a52-3c5e-4e8b-9a61-000000000001'],
  ]);
  for (const task of report.tasks) expect(existsSync(join(results, task.resultDir!, 'result.txt'))).toBe(true);
  expect(await readFile(join(results, 'index.html'), 'utf8')).toContain('2 runs per task · <b>0 of 1 tasks flaky</b>');
}, 600_000);
