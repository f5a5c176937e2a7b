import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { evaluate, isFailAction } from '../../src/eval/engine.ts';
import { defineGetter, defineMetric } from '../../src/eval/registry.ts';
import { SkipTask } from '../../src/errors.ts';
import type { EvalNode, MetricNode, SetupStepSpec } from '../../src/task/types.ts';
import { makeEnv, makeTask } from './engine-helpers.ts';
import { normalizeGuiosEvaluation } from '../../src/adapters/guios/schema.ts';
import { registerAdapters } from '../../src/adapters/index.ts';

// The formats' own setup steps, getters and metrics (loading a task file registers them; these tests load none).
registerAdapters();

// Metrics and getters defined through the public registry, as a user would.
const calls: string[] = [];
beforeAll(() => {
  defineMetric('test_value', (result) => {
    calls.push(`value:${JSON.stringify(result)}`);
    return result as number;
  });
  defineMetric('test_args', (result, expected, options) => {
    calls.push(`args:${JSON.stringify([result, expected === undefined ? 'undefined' : expected, options])}`);
    return 1;
  });
  defineMetric('test_throws', () => {
    throw new Error('the metric broke');
  });
  // A metric written loosely (a JS port returning a bool, as Python ones may): counted as 1 / 0.
  defineMetric('test_bool', (result) => (result === 'yes') as unknown as number);
  defineMetric('test_file_text', (result) => (readFileSync(result as string, 'utf8').trim() === 'gold' ? 1 : 0));
  defineMetric('test_mutates', (_result, _expected, options) => {
    (options as { list: number[] }).list.push(99);
    return 1;
  });
  defineMetric('test_paths', (result) => {
    calls.push(`paths:${JSON.stringify(result)}`);
    return 1;
  });
  defineMetric('test_format', () => 0.25);
  defineMetric('test_format', () => 0.75, { format: 'guios' });
  defineGetter('test_broken_getter', () => {
    throw new Error('cannot reach the thing');
  });
  defineGetter('test_enoent', () => {
    throw Object.assign(new Error('ENOENT: no such file or directory, open /nope'), { code: 'ENOENT' });
  });
});

const noSteps = { runSetupSteps: async () => {} };
const value = (score: unknown, func = 'test_value'): MetricNode => ({
  kind: 'metric',
  func,
  result: { type: 'rule', rules: score },
  options: {},
});

describe('scores', () => {
  test('a task without evaluator scores -1 and runs nothing', async () => {
    let ran = false;
    const outcome = await evaluate(makeTask(null), makeEnv(), { runSetupSteps: async () => void (ran = true) });
    expect(outcome).toMatchObject({ score: -1, details: { outcome: 'no-evaluator' } });
    expect(ran).toBe(false);
  });

  test('one metric returns its raw float score', async () => {
    const outcome = await evaluate(makeTask(value(0.37)), makeEnv(), noSteps);
    expect(outcome.score).toBe(0.37);
    expect(outcome.evalError).toBeUndefined();
    expect(outcome.details.metrics[0]).toMatchObject({ func: 'test_value', score: 0.37, result: { type: 'rule', output: 0.37 } });
  });

  test('a boolean from a metric counts as 1 / 0, as Python bools do', async () => {
    expect((await evaluate(makeTask(value('yes', 'test_bool')), makeEnv(), noSteps)).score).toBe(1);
    expect((await evaluate(makeTask(value('no', 'test_bool')), makeEnv(), noSteps)).score).toBe(0);
  });

  test('expected is undefined when the task has none; options reach the metric', async () => {
    calls.length = 0;
    const node: MetricNode = { kind: 'metric', func: 'test_args', result: { type: 'rule', rules: 'r' }, options: { k: 1 } };
    await evaluate(makeTask(node), makeEnv(), noSteps);
    const withExpected: MetricNode = { ...node, expected: { type: 'rule', rules: { expected: 'e' } } };
    await evaluate(makeTask(withExpected), makeEnv(), noSteps);
    expect(calls).toEqual(['args:["r","undefined",{"k":1}]', 'args:["r",{"expected":"e"},{"k":1}]']);
  });

  test('a metric changing its options does not change the task', async () => {
    const node: MetricNode = { kind: 'metric', func: 'test_mutates', result: { type: 'rule', rules: 1 }, options: { list: [1] } };
    const task = makeTask(node);
    await evaluate(task, makeEnv(), noSteps);
    await evaluate(task, makeEnv(), noSteps);
    expect(node.options).toEqual({ list: [1] });
  });

  test('a GUI-OS task uses the guios variant of a metric; other formats the plain one', async () => {
    const node: MetricNode = { kind: 'metric', func: 'test_format', result: { type: 'rule', rules: 1 }, options: {} };
    expect((await evaluate(makeTask(node, { format: 'guios' }), makeEnv(), noSteps)).score).toBe(0.75);
    expect((await evaluate(makeTask(node, { format: 'osworld' }), makeEnv(), noSteps)).score).toBe(0.25);
  });
});

describe('conj', () => {
  const conj = (op: 'and' | 'or', children: EvalNode[]): EvalNode => ({ kind: 'conj', conj: op, children });

  test('and: the mean of the scores', async () => {
    const outcome = await evaluate(makeTask(conj('and', [value(1), value(0.5), value(0.6)])), makeEnv(), noSteps);
    expect(outcome.score).toBeCloseTo((1 + 0.5 + 0.6) / 3, 12);
  });

  test('and: stops at the first 0; the rest are reported as skipped', async () => {
    calls.length = 0;
    const outcome = await evaluate(makeTask(conj('and', [value(0.5), value(0), value(1)])), makeEnv(), noSteps);
    expect(outcome.score).toBe(0);
    expect(calls).toEqual(['value:0.5', 'value:0']);
    expect(outcome.details.metrics.map((m) => m.skipped ?? false)).toEqual([false, false, true]);
  });

  test('or: the max of the scores', async () => {
    expect((await evaluate(makeTask(conj('or', [value(0.2), value(0.7), value(0.4)])), makeEnv(), noSteps)).score).toBe(0.7);
  });

  test('or: stops at the first 1', async () => {
    calls.length = 0;
    const outcome = await evaluate(makeTask(conj('or', [value(0.3), value(1), value(0.9)])), makeEnv(), noSteps);
    expect(outcome.score).toBe(1);
    expect(calls).toEqual(['value:0.3', 'value:1']);
  });

  test('nested conj (GUI-OS evaluate_multiple_notebooks inside an evaluator) combines inner scores first', async () => {
    const tree = conj('and', [value(1), conj('or', [value(0), value(0.5)])]);
    expect((await evaluate(makeTask(tree, { format: 'guios' }), makeEnv(), noSteps)).score).toBe(0.75);
  });
});

describe('infeasible and FAIL', () => {
  const infeasible: EvalNode = { kind: 'infeasible' };

  test('infeasible scores 1 exactly when the last action is FAIL (string or computer_13 object)', async () => {
    const task = makeTask(infeasible);
    expect((await evaluate(task, makeEnv(), { ...noSteps, lastAction: 'FAIL' })).score).toBe(1);
    expect((await evaluate(task, makeEnv(), { ...noSteps, lastAction: { action_type: 'FAIL' } })).score).toBe(1);
    expect((await evaluate(task, makeEnv(), { ...noSteps, lastAction: 'DONE' })).score).toBe(0);
    expect((await evaluate(task, makeEnv(), { ...noSteps, lastAction: 'pyautogui.click(1, 2)' })).score).toBe(0);
    expect((await evaluate(task, makeEnv(), noSteps)).score).toBe(0);
  });

  test('postconfig runs before the infeasible check', async () => {
    const order: string[] = [];
    const postconfig: SetupStepSpec[] = [{ type: 'sleep', parameters: { seconds: 0 } }];
    await evaluate(makeTask(infeasible, { postconfig }), makeEnv(), {
      lastAction: 'FAIL',
      runSetupSteps: async (steps) => void order.push(...steps.map((s) => s.type)),
    });
    expect(order).toEqual(['sleep']);
  });

  test('a feasible task whose agent gave up with FAIL scores 0 without running its metrics', async () => {
    calls.length = 0;
    const outcome = await evaluate(makeTask(value(1)), makeEnv(), { ...noSteps, lastAction: { action_type: 'FAIL' } });
    expect(outcome).toMatchObject({ score: 0, details: { outcome: 'agent-failed' } });
    expect(calls).toEqual([]);
  });

  test('GUI-OS has no FAIL action: its final state is scored regardless', async () => {
    const guios = makeTask(value(1), { format: 'guios' });
    const evaluator = normalizeGuiosEvaluation({ func: 'test_value', arguments: {} });
    expect(evaluator?.scoreAfterFail).toBe(true);
    expect((await evaluate({ ...guios, evaluator: { ...guios.evaluator!, scoreAfterFail: evaluator?.scoreAfterFail } }, makeEnv(), { ...noSteps, lastAction: 'FAIL' })).score).toBe(1);
  });

  test('isFailAction recognises only FAIL', () => {
    expect([isFailAction('FAIL'), isFailAction({ action_type: 'FAIL' }), isFailAction('WAIT'), isFailAction(undefined)])
      .toEqual([true, true, false, false]);
  });
});

describe('errors never escape', () => {
  test('a throwing getter scores 0 and names itself and its metric in evalError', async () => {
    const node: MetricNode = { kind: 'metric', func: 'test_value', result: { type: 'test_broken_getter' }, options: {} };
    const outcome = await evaluate(makeTask(node), makeEnv(), noSteps);
    expect(outcome.score).toBe(0);
    expect(outcome.evalError).toBe('getter test_broken_getter (result of test_value) failed: cannot reach the thing');
  });

  test('a throwing metric scores 0 with an evalError naming it; the other metrics still count', async () => {
    const tree: EvalNode = { kind: 'conj', conj: 'or', children: [value(1, 'test_throws'), value(0.5)] };
    const outcome = await evaluate(makeTask(tree), makeEnv(), noSteps);
    expect(outcome.score).toBe(0.5);
    expect(outcome.evalError).toBe('metric test_throws failed: the metric broke');
  });

  test('a broken getter of the expected side is named as such', async () => {
    const node: MetricNode = { ...value(1), expected: { type: 'test_broken_getter' } };
    expect((await evaluate(makeTask(node), makeEnv(), noSteps)).evalError).toBe(
      'getter test_broken_getter (expected of test_value) failed: cannot reach the thing');
  });

  test('unknown metric and unknown getter score 0 with an evalError', async () => {
    const unknownMetric = await evaluate(makeTask(value(1, 'no_such_metric')), makeEnv(), noSteps);
    expect(unknownMetric).toMatchObject({ score: 0, evalError: 'unknown metric "no_such_metric" (add it with defineMetric in a module of the plugin\'s `extensions`)' });
    const node: MetricNode = { kind: 'metric', func: 'test_value', result: { type: 'no_such_getter' }, options: {} };
    expect((await evaluate(makeTask(node), makeEnv(), noSteps)).evalError).toBe(
      'unknown getter "no_such_getter" (result of test_value; add it with defineGetter in a module of the plugin\'s `extensions`)',
    );
  });

  test('an unknown metric or getter close to a known one gets a did-you-mean', async () => {
    const metric = await evaluate(makeTask(value(1, 'compare_pdf')), makeEnv(), noSteps);
    expect(metric.evalError).toMatch(/^unknown metric "compare_pdf"; did you mean "compare_pdfs"/);
    const node: MetricNode = { kind: 'metric', func: 'test_value', result: { type: 'vm_fil' }, options: {} };
    expect((await evaluate(makeTask(node), makeEnv(), noSteps)).evalError).toMatch(/^unknown getter "vm_fil"; did you mean "vm_file"/);
  });

  test.each([
    [Number.NaN, 'NaN'],
    [7, '7'],
    [-0.5, '-0.5'],
    [Number.POSITIVE_INFINITY, 'Infinity'],
    ['1', '"1"'],
    [{ score: 1 }, '{"score":1}'],
  ])('a metric returning %s is an eval_error saying what it returned, and scores 0', async (returned, shown) => {
    const outcome = await evaluate(makeTask(value(returned)), makeEnv(), noSteps);
    expect(outcome).toMatchObject({ score: 0, evalError: `metric test_value failed: returned ${shown}, not a score between 0 and 1` });
  });

  test('scores at the ends of [0, 1] and fractions in between pass through unchanged', async () => {
    for (const score of [0, 1, 0.25, 1e-9]) expect((await evaluate(makeTask(value(score)), makeEnv(), noSteps)).score).toBe(score);
  });

  test('a failing postconfig scores 0 with an evalError; SkipTask from it is passed on to the runner', async () => {
    const task = makeTask(value(1), { postconfig: [{ type: 'execute', parameters: {} }] });
    const failed = await evaluate(task, makeEnv(), { runSetupSteps: async () => { throw new Error('libreoffice crashed'); } });
    expect(failed).toMatchObject({ score: 0, evalError: 'postconfig failed: libreoffice crashed', details: { outcome: 'postconfig-failed' } });
    await expect(evaluate(task, makeEnv(), { runSetupSteps: async () => { throw new SkipTask('needs an account'); } }))
      .rejects.toBeInstanceOf(SkipTask);
  });
});

describe('getters that find nothing', () => {
  test('null from a getter scores the metric 0 without an error', async () => {
    calls.length = 0;
    const outcome = await evaluate(makeTask(value(null)), makeEnv(), noSteps);
    expect(outcome.score).toBe(0);
    expect(outcome.evalError).toBeUndefined();
    expect(outcome.details.metrics[0].result?.missing).toBe('getter rule (result of test_value) found nothing');
    expect(calls).toEqual([]);
  });

  test('a missing local file scores 0; a present one is compared', async () => {
    const env = makeEnv();
    writeFileSync(join(env.taskDir, 'gold.txt'), 'gold\n');
    const node = (path: string): MetricNode => ({ kind: 'metric', func: 'test_file_text', result: { type: 'local_file', path }, options: {} });
    expect((await evaluate(makeTask(node('gold.txt')), env, noSteps)).score).toBe(1);
    const missing = await evaluate(makeTask(node('absent.txt')), env, noSteps);
    expect(missing.score).toBe(0);
    expect(missing.evalError).toBeUndefined();
  });

  test("a getter's ENOENT (OSWorld's FileNotFoundError) is a 0, not an error", async () => {
    const node: MetricNode = { kind: 'metric', func: 'test_value', result: { type: 'test_enoent' }, options: {} };
    const outcome = await evaluate(makeTask(node), makeEnv(), noSteps);
    expect(outcome.score).toBe(0);
    expect(outcome.evalError).toBeUndefined();
  });
});

describe('multi / gives', () => {
  function downloads() {
    const env = makeEnv();
    const dir = join(env.taskDir, 'remote');
    mkdirSync(dir);
    const urls: Record<string, string> = {};
    for (const name of ['a.xlsx', 'a-Sheet1.csv', 'a-Sheet2.csv']) {
      writeFileSync(join(dir, name), name);
      urls[`https://files.example/${name}`] = join(dir, name);
    }
    return { env: { ...env, fetchUrl: async (url: string) => urls[url] }, urls: Object.keys(urls) };
  }

  test('gives [0] returns one path; the other files still land in the cache beside it', async () => {
    const { env, urls } = downloads();
    calls.length = 0;
    const node: MetricNode = {
      kind: 'metric',
      func: 'test_paths',
      result: { type: 'cloud_file', multi: true, path: urls, dest: ['a.xlsx', 'a-Sheet1.csv', 'a-Sheet2.csv'], gives: [0] },
      options: {},
    };
    expect((await evaluate(makeTask(node), env, noSteps)).score).toBe(1);
    expect(calls).toEqual([`paths:${JSON.stringify(join(env.cacheDir, 'a.xlsx'))}`]);
    expect(readFileSync(join(env.cacheDir, 'a-Sheet2.csv'), 'utf8')).toBe('a-Sheet2.csv');
  });

  test('gives with several indexes returns the list of those paths, in order', async () => {
    const { env, urls } = downloads();
    calls.length = 0;
    const node: MetricNode = {
      kind: 'metric',
      func: 'test_paths',
      result: { type: 'cloud_file', multi: true, path: urls, dest: ['x.xlsx', 'x1.csv', 'x2.csv'], gives: [0, 2] },
      options: {},
    };
    await evaluate(makeTask(node), env, noSteps);
    expect(calls).toEqual([`paths:${JSON.stringify([join(env.cacheDir, 'x.xlsx'), join(env.cacheDir, 'x2.csv')])}`]);
    expect(existsSync(join(env.cacheDir, 'x1.csv'))).toBe(true);
  });
});
