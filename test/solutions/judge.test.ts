// How deskbench verify judges runs (no desktop needed): each agent's expected score, free passes, runs that broke or
// never ran, and the console table with its count line.
import { describe, expect, test } from 'vitest';
import type { TaskRecord } from '../../src/report/aggregate.ts';
import { formatVerification, judge } from '../../src/solutions/verify.ts';
import type { Task } from '../../src/task/types.ts';

const task = (id: string, infeasible = false) => ({ id, domain: 'os', file: `/tasks/os/${id}.json`, flags: { infeasible } }) as unknown as Task;
const record = (agent: string, id: string, score: number | null, extra: Partial<TaskRecord> = {}): TaskRecord => ({
  id,
  agent,
  name: id,
  domain: 'os',
  format: 'osworld',
  tags: [],
  testState: score === 1 ? 'passed' : 'failed',
  state: score === null ? 'SETUP_ERROR' : 'success',
  score,
  steps: 1,
  durationMs: 1000,
  evalError: null,
  error: score === null ? 'setup step 1 failed' : null,
  resultDir: null,
  ...extra,
});

describe('judge', () => {
  const solved = task('solved');
  const free = task('free');
  const infeasible = task('infeasible', true);
  const plan = { scripted: [solved, free, infeasible], noop: [solved, free, infeasible], fail: [infeasible] };

  test('a task is verified when scripted scores 1, noop 0 and (infeasible) fail 1', () => {
    const records = [
      record('scripted', 'solved', 1), record('noop', 'solved', 0),
      record('scripted', 'free', 1), record('noop', 'free', 1),
      record('scripted', 'infeasible', 1), record('noop', 'infeasible', 0), record('fail', 'infeasible', 1),
    ];
    const summary = judge(10, plan, records);
    expect({ tasks: summary.tasks, solved: summary.solved, verified: summary.verified, freePasses: summary.freePasses }).toEqual({ tasks: 10, solved: 3, verified: 2, freePasses: ['free'] });
    expect(summary.failures).toEqual([{ id: 'free', agent: 'noop', score: 1, state: 'success', evalError: null, error: null }]);
    const text = formatVerification(summary);
    expect(text).toContain('FAIL free with noop: free pass: score 1, expected 0');
    expect(text).toMatch(/infeasible\s+os\s+1\s+0\s+1\s+yes/);
    expect(text.split('\n').at(-1)).toBe('verified 2 of 3 solved (10 tasks in the paths)');
  });

  test('a run that broke before a score, or never ran, is a failure with the reason', () => {
    const summary = judge(3, { scripted: [solved], noop: [solved], fail: [] }, [record('scripted', 'solved', null)]);
    expect(summary.verified).toBe(0);
    expect(summary.failures).toEqual([
      { id: 'solved', agent: 'scripted', score: null, state: 'SETUP_ERROR', evalError: null, error: 'setup step 1 failed' },
      { id: 'solved', agent: 'noop', score: null, state: null, evalError: null, error: 'the run did not take place (filtered out or vitest stopped early)' },
    ]);
    expect(summary.freePasses).toEqual([]);
    expect(formatVerification(summary)).toContain('FAIL solved with scripted: score –, expected 1 (setup step 1 failed)');
  });

  test('a partial score is neither a solution nor a clean noop', () => {
    const summary = judge(1, { scripted: [solved], noop: [solved], fail: [] }, [record('scripted', 'solved', 0.5), record('noop', 'solved', 0.25)]);
    expect(summary.failures.map((f) => `${f.agent} ${f.score}`)).toEqual(['scripted 0.5', 'noop 0.25']);
    expect(summary.freePasses).toEqual(['solved']);
  });

  test('nothing solved: no rows, and the count line', () => {
    expect(formatVerification(judge(4, { scripted: [], noop: [], fail: [] }, []))).toBe('verified 0 of 0 solved (4 tasks in the paths)');
  });
});
