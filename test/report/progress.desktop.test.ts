// A real run of a fixture task with the config's Agent object (a two-turn agent: one shell action, then DONE): the
// object reaches vitest's workers and acts; vitest's output shows where a task is (desktop, setup, each agent step
// with its action, evaluation), and report.json and the task's HTML page keep that timeline; the task's summary.json
// and report.json record the image and app versions it ran on.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, expect, test } from 'vitest';
import type { RunReport } from '../../src/node/report/aggregate.ts';
import { childRunId } from '../helpers/child-run.ts';
import { type VitestRun, vitestCli } from '../plugin/run-vitest.ts';

const PROJECT = resolve(import.meta.dirname, '../../fixtures/runner-project');
const TASK_02 = '7d1f0a52-3c5e-4e8b-9a61-000000000002';

let results: string;
let runId: string;
let run: VitestRun;
let report: RunReport;
beforeAll(async () => {
  results = await mkdtemp(join(tmpdir(), 'deskbench-progress-'));
  runId = childRunId('progress');
  // Task 02: only an agent that acts passes it.
  run = await vitestCli(PROJECT, ['run', '000000000002'], { DESKBENCH_RESULTS: results, DESKBENCH_FIXTURE_AGENT: 'object', DESKBENCH_RUN_ID: runId });
  report = JSON.parse(await readFile(join(results, 'report.json'), 'utf8')) as RunReport;
}, 300_000);

test('an Agent object in the config (not a module path) reaches the workers and acts', async () => {
  expect(run.code, run.stdout + run.stderr).toBe(0);
  expect(report.tasks.map((task) => [task.id, task.testState])).toEqual([[TASK_02, 'passed']]);
  const summary = JSON.parse(await readFile(join(results, 'pyautogui', 'screenshot', 'config-object-finisher', 'os', TASK_02, 'summary.json'), 'utf8'));
  expect(summary.results).toMatchObject({ score: 1, state: 'success' });
  const { stdout } = await promisify(execFile)('docker', ['ps', '-a', '-q', '--filter', `label=deskbench.run=${runId}`]);
  expect(stdout.trim()).toBe('');
});

test('a running task reports its phase, step n/maxSteps and last action through vitest', async () => {
  const lines = run.stdout.split('\n').filter((line) => line.includes('[deskbench] os/7d1f0a52'));
  expect(lines.map((line) => line.replace(/^.*\[deskbench\] os\/7d1f0a52 /, ''))).toEqual([
    'starting the desktop',
    'setup',
    'agent',
    "agent step 1/15: import subprocess; subprocess.run(['bash', '-c', 'echo fini…",
    'agent step 2/15: DONE',
    'evaluating',
  ]);
  // The progress lines come before the verdict and the results table.
  expect(run.stdout.indexOf('evaluating')).toBeLessThan(run.stdout.indexOf('deskbench results'));

  const [task] = report.tasks;
  const progress = task.progress ?? [];
  expect(progress.map((p) => p.phase)).toEqual(['desktop', 'setup', 'agent', 'agent', 'agent', 'evaluation']);
  expect(progress[4]).toMatchObject({ step: 2, maxSteps: 15, action: 'DONE' });
  // Times grow from the task's start.
  for (let i = 1; i < progress.length; i++) expect(progress[i].atMs).toBeGreaterThanOrEqual(progress[i - 1].atMs);
  const page = await readFile(join(results, 'tasks', `os__${TASK_02}.html`), 'utf8');
  expect(page).toContain('agent step 2/15: DONE');

  // What it ran on: the image's id from the engine, the apps' versions from the desktop.
  const desktop = task.desktop;
  expect(desktop?.image).toBe(process.env.DESKBENCH_IMAGE ?? 'deskbench/desktop:latest');
  expect(desktop?.imageId).toMatch(/^sha256:[0-9a-f]{64}$/);
  expect(desktop?.versions).toMatchObject({ chromium: expect.stringMatching(/^\d+\./), 'libreoffice-core': expect.stringMatching(/^\d+\./), gimp: expect.stringMatching(/^2\./) });
  expect(desktop?.versions['code-server']).toMatch(/^\d+\.\d+/);
  expect(report.desktops).toEqual([{ ...desktop, tasks: 1 }]);
  const summary = JSON.parse(await readFile(join(results, task.resultDir!, 'summary.json'), 'utf8'));
  expect(summary.results.desktop).toEqual(desktop);
  expect(page).toContain(desktop!.imageId);
});
