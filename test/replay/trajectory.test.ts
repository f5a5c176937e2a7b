// Reading recorded trajectories (src/node/replay/trajectory.ts): OSWorld's traj.jsonl in its results layout and a
// trajectory.json, the variant name each becomes, clear errors for files that are not trajectories or whose task is
// absent, and what replay records about where its figures come from.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { findTrajectories, replay } from '../../src/node/replay/replay.ts';
import { readTrajectory, variantName } from '../../src/node/replay/trajectory.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const FIXTURES = join(ROOT, 'fixtures/replay');

test("OSWorld's traj.jsonl: the task and domain from its folders, one step per line with its executed action, the variant from the agent's folder", () => {
  const file = join(FIXTURES, 'recorded-agent/os/11111111-2222-4333-8444-555555555555/traj.jsonl');
  const trajectory = readTrajectory(file);
  expect(trajectory).toMatchObject({ taskId: '11111111-2222-4333-8444-555555555555', domain: 'os', variant: 'recorded-agent' });
  expect(trajectory.steps).toEqual([['pyautogui.click(960, 540)'], ["import pyperclip; pyperclip.copy('hello'); pyautogui.hotkey('ctrl', 'v')"], ['DONE']]);
  expect(trajectory.score).toBeUndefined();
});

test('a trajectory.json: its task, recorded score, steps, and a variant named after its agent', () => {
  const trajectory = readTrajectory(join(FIXTURES, 'json/trajectory.json'));
  expect(trajectory).toMatchObject({ taskId: '28cc3b7e-b194-4bc9-8353-d04c0f4d56d2', domain: 'os', variant: 'example-agent-0-1', score: 1 });
  expect(trajectory.steps).toEqual([['pyautogui.click(1864, 12)'], ['WAIT'], ['DONE']]);
});

test('variant names are what solution files allow: lower-case letters, digits and dashes, a letter first', () => {
  expect(variantName('UI-TARS-0717-100step')).toBe('ui-tars-0717-100step');
  expect(variantName('osworld-verified-doubao15-tvp')).toBe('osworld-verified-doubao15-tvp');
  expect(variantName('0717 run')).toBe('t-0717-run');
});

test('a file that is not a trajectory is an error naming the file and the field', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'deskbench-replay-'));
  const file = join(dir, 'trajectory.json');
  await writeFile(file, JSON.stringify({ domain: 'os', steps: [{ action: 'DONE' }] }));
  expect(() => readTrajectory(file)).toThrow(expect.objectContaining({ code: 'DESKBENCH_TASK_FILE', file, path: 'taskId' }));
  await writeFile(join(dir, 'traj.jsonl'), '{"action": 3}\n');
  expect(() => readTrajectory(join(dir, 'traj.jsonl'))).toThrow(/traj\.jsonl at \[line 1\]\.action/);
});

test('folders are searched for trajectory.json and traj.jsonl files, in a stable order; a path that names nothing is an error', () => {
  expect(findTrajectories([FIXTURES]).map((file) => file.slice(FIXTURES.length + 1))).toEqual([
    'json/trajectory.json',
    'recorded-agent/os/11111111-2222-4333-8444-555555555555/traj.jsonl',
  ]);
  expect(() => findTrajectories([join(FIXTURES, 'nothing-here')])).toThrow(/no such file or folder of trajectories/);
});

test('a trajectory whose task is not in the corpus is an error naming the file and field (path); no desktop starts, and the output still records where its figures come from', async () => {
  const corpus = await mkdtemp(join(tmpdir(), 'deskbench-replay-corpus-'));
  const results = await mkdtemp(join(tmpdir(), 'deskbench-replay-results-'));
  const report = await replay({ trajectories: [join(FIXTURES, 'json/trajectory.json')], corpus, resultsDir: results, packageRoot: ROOT });
  expect(report.rows).toEqual([]);
  expect(report.errors).toEqual([expect.objectContaining({ file: join(FIXTURES, 'json/trajectory.json'), path: 'taskId', message: expect.stringContaining('not in the corpus') })]);
  expect(report.verification.environment).toMatchObject({ commit: expect.stringMatching(/^[0-9a-f]{40}$/), treeBuildHash: expect.stringMatching(/^[0-9a-f]{12}$/) });
  expect(report.verification.durationSeconds).toBeGreaterThanOrEqual(0);
});
