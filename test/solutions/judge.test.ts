// How deskbench verify judges runs (no desktop needed): each agent's expected score, free passes, runs that broke or
// never ran, and the console table with its count line.
import { describe, expect, test } from 'vitest';
import type { TaskRecord } from '../../src/node/report/aggregate.ts';
import { type VerifyPlan, formatVerification, judge } from '../../src/node/verify/verify.ts';
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

/** A plan of the three agents' runs (no second solutions). */
const planOf = (byAgent: Partial<Record<'scripted' | 'noop' | 'fail', Task[]>>): VerifyPlan =>
  Object.entries(byAgent).map(([agent, tasks]) => ({ run: { name: agent, agent: agent as 'scripted' }, tasks }));

describe('judge', () => {
  const solved = task('solved');
  const free = task('free');
  const infeasible = task('infeasible', true);
  const plan = planOf({ scripted: [solved, free, infeasible], noop: [solved, free, infeasible], fail: [infeasible] });

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
    const summary = judge(3, planOf({ scripted: [solved], noop: [solved] }), [record('scripted', 'solved', null)]);
    expect(summary.verified).toBe(0);
    expect(summary.failures).toEqual([
      { id: 'solved', agent: 'scripted', score: null, state: 'SETUP_ERROR', evalError: null, error: 'setup step 1 failed' },
      { id: 'solved', agent: 'noop', score: null, state: null, evalError: null, error: 'the run did not take place (filtered out or vitest stopped early)' },
    ]);
    expect(summary.freePasses).toEqual([]);
    expect(formatVerification(summary)).toContain('FAIL solved with scripted: score –, expected 1 (setup step 1 failed)');
  });

  test('a partial score is neither a solution nor a clean noop', () => {
    const summary = judge(1, planOf({ scripted: [solved], noop: [solved] }), [record('scripted', 'solved', 0.5), record('noop', 'solved', 0.25)]);
    expect(summary.failures.map((f) => `${f.agent} ${f.score}`)).toEqual(['scripted 0.5', 'noop 0.25']);
    expect(summary.freePasses).toEqual(['solved']);
  });

  test('with repeats: per task and run kind the runs that scored as expected; some but not all is flaky, and not verified', () => {
    const runs = (agent: string, id: string, scores: (number | null)[]) => scores.map((score, i) => record(agent, id, score, { repeat: i + 1, durationMs: 10_000 * (i + 1) }));
    const records = [...runs('scripted', 'solved', [1, 1, 1]), ...runs('noop', 'solved', [0, 0, 0]), ...runs('scripted', 'free', [1, 0, 1]), ...runs('noop', 'free', [0, 0])];
    const summary = judge(2, planOf({ scripted: [solved, free], noop: [solved, free] }), records, 3);
    expect({ verified: summary.verified, repeats: summary.repeats, flaky: summary.flaky, freePasses: summary.freePasses }).toEqual({ verified: 1, repeats: 3, flaky: ['free'], freePasses: [] });
    expect(summary.rows.find((row) => row.id === 'free')?.runs).toEqual({
      scripted: { scores: [1, 0, 1], asExpected: 2, passRate: 66.7, meanSeconds: 20 },
      noop: { scores: [0, 0, null], asExpected: 2, passRate: 66.7, meanSeconds: 15 },
    });
    expect(summary.failures.map(({ id, agent, repeat, score, error }) => ({ id, agent, repeat, score, error }))).toEqual([
      { id: 'free', agent: 'scripted', repeat: 2, score: 0, error: null },
      { id: 'free', agent: 'noop', repeat: 3, score: null, error: 'the run did not take place (filtered out or vitest stopped early)' },
    ]);
    const text = formatVerification(summary);
    expect(text).toMatch(/solved\s+os\s+3\/3\s+3\/3\s+yes\s+20/);
    expect(text).toMatch(/free\s+os\s+2\/3\s+2\/3\s+FLAKY\s+20/);
    expect(text).toContain('FAIL free with scripted (run 2 of 3): score 0, expected 1');
    expect(text.split('\n').at(-1)).toBe('verified 1 of 2 solved (2 tasks in the paths); 3 runs each; 1 flaky');
  });

  test('a second solution runs as scripted.<variant>: it must score 1 too, and its failure names the variant', () => {
    const gui = { run: { name: 'scripted.gui', agent: 'scripted' as const, variant: 'gui' }, tasks: [solved] };
    const plan = [...planOf({ scripted: [solved] }), gui, ...planOf({ noop: [solved] })];
    const summary = judge(1, plan, [record('scripted', 'solved', 1), record('scripted.gui', 'solved', 0), record('noop', 'solved', 0)]);
    expect(summary.verified).toBe(0);
    expect(summary.failures).toEqual([{ id: 'solved', agent: 'scripted', variant: 'gui', score: 0, state: 'success', evalError: null, error: null }]);
    const text = formatVerification(summary);
    expect(text).toMatch(/task\s+domain\s+scripted\s+scripted\.gui\s+noop\s+verified/);
    expect(text).toContain('FAIL solved with scripted.gui: score 0, expected 1');
  });

  test('errors and gold-only tasks are listed before the failures, and counted on the last line', () => {
    const summary = {
      ...judge(3, [], []),
      errors: [{ code: 'DESKBENCH_TASK_PATH_MISSING', file: '/work/typo', path: '', message: 'no such file or folder' }],
      goldOnly: [{ id: 'g', domain: 'jupyter', reason: 'the gold notebook has a comment nobody sees' }],
    };
    expect(formatVerification(summary)).toBe(
      'ERROR DESKBENCH_TASK_PATH_MISSING /work/typo: no such file or folder\n\nGOLD ONLY g (jupyter), not counted: the gold notebook has a comment nobody sees\n\n' +
        'verified 0 of 0 solved (3 tasks in the paths); 1 gold-only; 1 errors',
    );
  });

  test('nothing solved: no rows, and the count line', () => {
    expect(formatVerification(judge(4, [], []))).toBe('verified 0 of 0 solved (4 tasks in the paths)');
  });
});
