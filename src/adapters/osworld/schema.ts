// OSWorld task files (`examples/<domain>/<id>.json`, `examples_windows/<domain>/<id>.json`), and the evaluator
// normalization Spider2-V shares with it.
import { z } from 'zod';
import type { EvalNode, Evaluator, GetterSpec, SetupStepSpec } from '../../task/types.ts';
import { osworldEvaluator, taskId, solution, stringList, typedStep } from '../../task/schema-parts.ts';

export const osworldTaskSchema = z.looseObject({
  id: taskId,
  instruction: z.string({ error: 'expected the instruction (string)' }).min(1),
  snapshot: z.string().optional(),
  source: z.union([z.string(), stringList]).optional(),
  config: z.array(typedStep, { error: 'expected a list of setup steps {type, parameters}' }).optional(),
  evaluator: osworldEvaluator,
  related_apps: stringList.optional(),
  trajectory: z.string().optional(),
  proxy: z.boolean().optional(),
  fixed_ip: z.boolean().optional(),
  possibility_of_env_change: z.string().optional(),
  hint: z.unknown().optional(),
  solution: solution.optional(),
});

export function normalizeSteps(steps: readonly { type: string; parameters?: Record<string, unknown> }[] | undefined): SetupStepSpec[] {
  return (steps ?? []).map((step) => ({ type: step.type, parameters: step.parameters ?? {} }));
}

type EvaluatorFile = z.infer<typeof osworldEvaluator>;

/** OSWorld's `_set_evaluator_info` + `evaluate()` shape as a tree: one metric, or several joined by `conj`. */
export function normalizeEvaluator(evaluator: EvaluatorFile): Evaluator {
  const postconfig = normalizeSteps(evaluator.postconfig);
  if (!Array.isArray(evaluator.func)) {
    return {
      postconfig,
      root: metricNode(evaluator.func, evaluator.result, evaluator.expected, evaluator.options),
    };
  }
  const at = <T,>(value: T | T[] | undefined, i: number): T | undefined => (Array.isArray(value) ? value[i] : value);
  const children = evaluator.func.map((func, i) =>
    metricNode(func, at(evaluator.result, i), at(evaluator.expected, i), at(evaluator.options, i)),
  );
  return { postconfig, root: { kind: 'conj', conj: evaluator.conj ?? 'and', children } };
}

function metricNode(func: string, result: unknown, expected: unknown, options: unknown): EvalNode {
  if (func === 'infeasible') return { kind: 'infeasible' };
  return {
    kind: 'metric',
    func,
    result: asGetter(result),
    // OSWorld passes an expected value only when the `expected` entry is present and truthy.
    expected: asGetter(expected),
    options: (options && typeof options === 'object' ? options : {}) as Record<string, unknown>,
  };
}

function asGetter(value: unknown): GetterSpec | undefined {
  return value && typeof value === 'object' && 'type' in value ? (value as GetterSpec) : undefined;
}
