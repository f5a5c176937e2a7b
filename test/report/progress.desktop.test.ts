// A real run of one fixture task with a two-turn agent: vitest's output shows where the task is (desktop, setup,
// each agent step with its action, evaluation), and report.json and the task's HTML page keep that timeline; the
// task's summary.json and report.json record the image and app versions it ran on.
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { expect, test } from 'vitest';
import type { RunReport } from '../../src/node/report/aggregate.ts';
import { vitestCli } from '../plugin/run-vitest.ts';

const PROJECT = resolve(import.meta.dirname, '../../fixtures/runner-project');

test('a running task reports its phase, step n/maxSteps and last action through vitest', async () => {
  const results = await mkdtemp(join(tmpdir(), 'deskbench-progress-'));
  // Task 02 with the config's agent object: one shell action, then DONE.
  const run = await vitestCli(PROJECT, ['run', '000000000002'], { DESKBENCH_RESULTS: results, DESKBENCH_FIXTURE_AGENT: 'object', DESKBENCH_RUN_ID: `test-${basename(results)}` });
  expect(run.code, run.stdout + run.stderr).toBe(0);
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

  const report = JSON.parse(await readFile(join(results, 'report.json'), 'utf8')) as RunReport;
  const progress = report.tasks[0].progress ?? [];
  expect(progress.map((p) => p.phase)).toEqual(['desktop', 'setup', 'agent', 'agent', 'agent', 'evaluation']);
  expect(progress[4]).toMatchObject({ step: 2, maxSteps: 15, action: 'DONE' });
  // Times grow from the task's start.
  for (let i = 1; i < progress.length; i++) expect(progress[i].atMs).toBeGreaterThanOrEqual(progress[i - 1].atMs);
  const page = await readFile(join(results, 'tasks', `os__${report.tasks[0].id}.html`), 'utf8');
  expect(page).toContain('agent step 2/15: DONE');

  // What it ran on: the image's id from the engine, the apps' versions from the desktop.
  const desktop = report.tasks[0].desktop;
  expect(desktop?.image).toBe(process.env.DESKBENCH_IMAGE ?? 'deskbench/desktop:latest');
  expect(desktop?.imageId).toMatch(/^sha256:[0-9a-f]{64}$/);
  expect(desktop?.versions).toMatchObject({ chromium: expect.stringMatching(/^\d+\./), 'libreoffice-core': expect.stringMatching(/^\d+\./), gimp: expect.stringMatching(/^2\./) });
  expect(desktop?.versions['code-server']).toMatch(/^\d+\.\d+/);
  expect(report.desktops).toEqual([{ ...desktop, tasks: 1 }]);
  const summary = JSON.parse(await readFile(join(results, report.tasks[0].resultDir!, 'summary.json'), 'utf8'));
  expect(summary.results.desktop).toEqual(desktop);
  expect(page).toContain(desktop!.imageId);
}, 300_000);
