import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { pythonFloatRepr } from '../../src/python/repr.ts';
import { TaskResultWriter, taskResultDir } from '../../src/worker/results.ts';

const png = Buffer.from('89504e470d0a1a0a', 'hex');

describe('per-task results', () => {
  test("OSWorld's layout: traj.jsonl lines, step screenshots, result.txt as Python prints a float", () => {
    const dir = taskResultDir(mkdtempSync(join(tmpdir(), 'deskbench-results-')), { observationType: 'screenshot', agent: 'my agent' }, { domain: 'os', id: 'abc' });
    expect(dir).toMatch(/pyautogui\/screenshot\/my_agent\/os\/abc$/);
    const writer = new TaskResultWriter(dir);
    const file = writer.writeStep({ step: 1, action: 'DONE', done: true, info: { done: true }, screenshot: png, timestamp: new Date(2026, 0, 2, 3, 4, 5, 678) });
    expect(file).toBe('step_1_20260102@030405678000.png');
    writer.writeScore(1);
    const line = JSON.parse(readFileSync(join(dir, 'traj.jsonl'), 'utf8'));
    expect(line).toMatchObject({ step_num: 1, action: 'DONE', reward: 0, done: true, screenshot_file: file });
    expect(readFileSync(join(dir, 'result.txt'), 'utf8')).toBe('1.0\n');
    expect([pythonFloatRepr(0), pythonFloatRepr(0.25), pythonFloatRepr(-1)]).toEqual(['0.0', '0.25', '-1.0']);
  });

  test('a re-run starts the task folder afresh: no lines or screenshots of the earlier run remain', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'deskbench-results-')), 'task');
    const first = new TaskResultWriter(dir);
    first.writeStep({ step: 1, action: 'WAIT', done: false, info: {}, screenshot: png, timestamp: new Date(2026, 0, 1) });
    first.writeScore(0);
    const second = new TaskResultWriter(dir);
    second.writeStep({ step: 1, action: 'DONE', done: true, info: {}, screenshot: png, timestamp: new Date(2026, 0, 2) });
    expect(readFileSync(join(dir, 'traj.jsonl'), 'utf8').trim().split('\n')).toHaveLength(1);
    expect(readdirSync(dir).filter((f) => f.endsWith('.png'))).toHaveLength(1);
    expect(existsSync(join(dir, 'result.txt'))).toBe(false);
  });

  test('a hostile id or domain cannot reach outside the results folder: nothing is removed or created there', () => {
    const top = mkdtempSync(join(tmpdir(), 'deskbench-results-'));
    const resultsDir = join(top, 'results');
    const canary = join(top, 'canary');
    mkdirSync(join(canary, 'inside'), { recursive: true });
    const run = { observationType: 'screenshot', agent: 'scripted' };
    const file = '/tasks/hostile.json';
    for (const id of ['../../../../../canary', '..', '.', '/tmp/x', `../../../../../${basename(top)}`]) {
      expect(() => new TaskResultWriter(taskResultDir(resultsDir, run, { domain: 'os', id, file })), id).toThrow(
        new RegExp(`^/tasks/hostile\\.json: id ".*" (leads outside its folder|is an absolute path outside its folder); it must stay inside ${resultsDir}/pyautogui/screenshot/scripted/os$`),
      );
    }
    expect(() => taskResultDir(resultsDir, run, { domain: '../../../../..', id: 'canary', file })).toThrow(/domain \(the task's folder name\)/);
    expect(existsSync(join(canary, 'inside'))).toBe(true);
    expect(readdirSync(top).sort()).toEqual(['canary']);
  });

  test('a results folder reached through a symlink the task did not make still works; a link to outside does not', () => {
    const top = mkdtempSync(join(tmpdir(), 'deskbench-results-'));
    const resultsDir = join(top, 'results');
    mkdirSync(join(resultsDir, 'pyautogui', 'screenshot', 'scripted'), { recursive: true });
    mkdirSync(join(top, 'elsewhere'));
    symlinkSync(join(top, 'elsewhere'), join(resultsDir, 'pyautogui', 'screenshot', 'scripted', 'os'));
    expect(() => taskResultDir(resultsDir, { observationType: 'screenshot', agent: 'scripted' }, { domain: 'os', id: 'abc' })).toThrow(/goes through a symbolic link/);
  });
});
