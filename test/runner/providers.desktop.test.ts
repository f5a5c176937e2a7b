// The runner through its API: a task against an already running desktop (the `remote` provider, as an OSWorld VM
// would be used), and the fixtures for hand-written tests (`deskbench/test`).
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { scriptedAgent } from '../../src/agent/agents/scripted.ts';
import '../../src/matchers/index.ts';
import { runTask } from '../../src/worker/run-task.ts';
import { readTaskFile } from '../../src/adapters/load.ts';
import type { Task } from '../../src/task/types.ts';
import { test } from '../../src/test.ts';
import { type TestDesktop, takeDesktop } from '../helpers/desktops.ts';

const TASKS = resolve(import.meta.dirname, '../../fixtures/tasks/runner/examples/os');
const load = (suffix: string): Task => {
  const result = readTaskFile(join(TASKS, `7d1f0a52-3c5e-4e8b-9a61-00000000000${suffix}.json`), { explicit: true });
  if (result.kind !== 'task') throw new Error('fixture task did not load');
  return result.task;
};

describe('remote provider', () => {
  let desktop: TestDesktop;
  beforeAll(async () => {
    desktop = await takeDesktop();
  });
  afterAll(async () => {
    await desktop?.stop();
  });

  test('runs a task on a desktop someone else started, and leaves it running', async () => {
    const resultsDir = await mkdtemp(join(tmpdir(), 'deskbench-remote-'));
    const outcome = await runTask(load('2'), {
      agent: scriptedAgent(),
      maxSteps: 5,
      observationType: 'screenshot',
      pauseAfterAction: 0.1, settleAfterSetup: 0, settleBeforeEvaluation: 0,
      passThreshold: 1,
      resultsDir,
      cacheDir: join(resultsDir, 'cache'),
      desktop: { provider: 'remote', url: desktop.url, token: desktop.token },
      record: false,
      resume: false,
    });
    expect(outcome).toMatchObject({ status: 'scored', score: 1, passed: true, state: 'success' });
    expect(outcome.timings.desktop).toBeLessThan(5000);
    // Not ours to stop: the desktop still answers, with the task's change in place.
    expect((await desktop.client.readFile('/home/user/Desktop/done.txt'))?.toString()).toBe('finished\n');
  });

  test('a wrong token is refused with a clear error and no score', async () => {
    const outcome = await runTask(load('1'), {
      agent: scriptedAgent(),
      maxSteps: 1,
      observationType: 'screenshot',
      pauseAfterAction: 0, settleAfterSetup: 0, settleBeforeEvaluation: 0,
      passThreshold: 1,
      resultsDir: await mkdtemp(join(tmpdir(), 'deskbench-remote-')),
      cacheDir: join(tmpdir(), 'deskbench-cache'),
      desktop: { provider: 'remote', url: desktop.url, token: 'not-the-token' },
      record: false,
      resume: false,
    });
    expect(outcome.status).toBe('error');
    expect(outcome.state).toBe('DESKTOP_ERROR');
    expect(outcome.error).toMatch(/401/);
  });
});

describe('fixtures for hand-written tests', () => {
  test('a fresh desktop: upload, convert with LibreOffice, assert with a matcher', async ({ desktop }) => {
    const { client } = desktop;
    await client.upload('/home/user/hello.txt', Buffer.from('Hello, desktop\n'));
    const converted = await client.execute(['soffice', '-env:UserInstallation=file:///tmp/lo-test', '--headless', '--convert-to', 'pdf', '--outdir', '/home/user', '/home/user/hello.txt']);
    expect(converted.returncode).toBe(0);
    const pdf = await client.readFile('/home/user/hello.pdf');
    expect(pdf?.subarray(0, 5).toString()).toBe('%PDF-');
    const local = join(await mkdtemp(join(tmpdir(), 'deskbench-fixture-')), 'hello.pdf');
    await writeFile(local, pdf!);
    await expect(local).toPassMetric('check_pdf_pages', { relation: 'eq', ref_value: 1 });
    await expect(local).toMatchPdf(local);
  });

  test('runTask runs a task file end to end with the agent fixture (scripted)', async ({ runTask: run }) => {
    const outcome = await run(join(TASKS, '7d1f0a52-3c5e-4e8b-9a61-000000000003.json'), { resultsDir: await mkdtemp(join(tmpdir(), 'deskbench-fixture-')), pauseAfterAction: 0.1 });
    expect(outcome).toMatchObject({ status: 'scored', score: 1, passed: true });
  });
});
