// GUI-OS task files (`examples/<tool>/<id>/<id>.json` beside their inputs and gold files): `config[]` of
// `{func, arguments}` and `evaluation {func, arguments}`, evaluated by the same engine as OSWorld's evaluators.
import { z } from 'zod';
import type { EvalNode, Evaluator, GetterSpec, SetupStepSpec } from '../../task/types.ts';
import { funcStep, taskId, parameters, solution, stringList, typedStep } from '../../task/schema-parts.ts';

const evaluationCall: z.ZodType<{ func: string; arguments?: Record<string, unknown> }> = z.looseObject({
  func: z.string({ error: 'expected an evaluation function name (string)' }).min(1),
  arguments: parameters.optional(),
});

export const guiosTaskSchema = z.looseObject({
  id: taskId,
  instruction: z.string({ error: 'expected the instruction (string)' }).min(1),
  snapshot: z.string().optional(),
  source: z.union([z.string(), stringList]).optional(),
  related_apps: stringList.optional(),
  tags: stringList.optional(),
  action_number: z.number({ error: 'expected the number of actions (a number)' }).int().nonnegative().optional(),
  counterpart: z.string().optional(),
  config: z.array(z.union([funcStep, typedStep], { error: 'expected a setup step {func, arguments}' })).optional(),
  evaluation: z.union([evaluationCall, z.null()]).optional(),
  solution: solution.optional(),
});

export type GuiosTaskFile = z.infer<typeof guiosTaskSchema>;

/** A legacy `{type, parameters}` entry is skipped, as GUI-OS's orchestrator does ("Unknown setup function: None"). */
export function normalizeGuiosSteps(steps: GuiosTaskFile['config']): SetupStepSpec[] {
  return (steps ?? []).map((step) =>
    'func' in step && typeof step.func === 'string'
      ? { type: step.func, parameters: (step.arguments as Record<string, unknown> | undefined) ?? {} }
      : {
          type: String((step as { type: string }).type),
          parameters: ((step as { parameters?: Record<string, unknown> }).parameters) ?? {},
          ignoredBecause: 'legacy {type, parameters} step: GUI-OS skips it ("Unknown setup function: None")',
        },
  );
}

/** No `evaluation.func` → null (GUI-OS scores such a task -1). Its agent has no FAIL action: its orchestrator scores the final state regardless. */
export function normalizeGuiosEvaluation(evaluation: GuiosTaskFile['evaluation']): Evaluator | null {
  if (!evaluation?.func) return null;
  return { postconfig: [], root: evaluationNode(evaluation.func, evaluation.arguments ?? {}), scoreAfterFail: true };
}

/**
 * Maps GUI-OS's keyword arguments onto OSWorld's calling convention `f(result, expected, options)`:
 * `vm_*` → the result (a file fetched from the desktop), `local_*` → expected (a file in the task folder),
 * `eval_script` + `vm_eval_logs` → the result of running the script in the desktop, the rest → options.
 */
function evaluationNode(func: string, args: Record<string, unknown>): EvalNode {
  if (func === 'evaluate_multiple_notebooks') {
    const comparisons = Array.isArray(args.comparisons) ? args.comparisons : [];
    return {
      kind: 'conj',
      conj: args.operator === 'or' ? 'or' : 'and',
      children: comparisons.map((call: { func: string; arguments?: Record<string, unknown> }) =>
        evaluationNode(call.func, call.arguments ?? {}),
      ),
    };
  }
  let result: GetterSpec | undefined;
  let expected: GetterSpec | undefined;
  const options: Record<string, unknown> = {};
  if (typeof args.eval_script === 'string') {
    result = { type: 'vm_script_output', script: args.eval_script, log: args.vm_eval_logs };
  }
  for (const [key, value] of Object.entries(args)) {
    if (key === 'eval_script' || (key === 'vm_eval_logs' && result)) continue;
    if (key.startsWith('vm_') && typeof value === 'string') {
      result = { type: 'vm_file', path: value, dest: value.split('/').pop() || key };
    } else if (key.startsWith('local_') && typeof value === 'string') {
      expected = { type: 'local_file', path: value };
    } else {
      options[key] = value;
    }
  }
  return { kind: 'metric', func, result, expected, options };
}
