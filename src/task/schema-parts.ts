// zod pieces shared by the three formats' schemas. Objects are `loose`: unknown extra fields are kept (the formats
// allow notes such as `_config_note`), and the normalized Task carries them in `extra`.
import { z } from 'zod';

/**
 * A task id names the task's results folder, so it must be one safe path segment: letters, digits, `-`, `_`, `.`,
 * not `.` or `..`, at most 128 characters. The datasets' ids are UUIDs; anything else (`../x`, `a/b`) is refused.
 */
export const taskId = z
  .string({ error: 'expected the task id (string)' })
  .regex(/^[A-Za-z0-9._-]{1,128}$/, {
    error: 'expected the task id to be a safe folder name: 1 to 128 letters, digits, "-", "_" or "." (no "/", "\\" or spaces)',
  })
  .refine((id) => id !== '.' && id !== '..', { error: 'expected the task id to be a folder name, not "." or ".."' });

export const parameters = z.record(z.string(), z.unknown());

/** OSWorld / Spider2-V setup step: `{type, parameters}`. */
export const typedStep = z.looseObject({
  type: z.string({ error: 'expected a step type name (string)' }).min(1),
  parameters: parameters.optional(),
});

/** GUI-OS setup step: `{func, arguments}`. */
export const funcStep = z.looseObject({
  func: z.string({ error: 'expected a setup function name (string)' }).min(1),
  arguments: parameters.optional(),
});

/** A getter config: `{type, ...}`. `{}` / null appear where a metric takes no expected value. */
const getterSpec = z.looseObject({ type: z.string({ error: 'expected a getter type name (string)' }).min(1) });
const maybeGetter = z.union([getterSpec, z.object({}).strict(), z.null()]);

const optionsObject = z.union([parameters, z.null()]);

/** OSWorld's `evaluator`: func/result/expected/options may each be one item or a list of the same length. */
export const osworldEvaluator = z
  .looseObject({
    func: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)], {
      error: 'expected a metric name or a non-empty list of metric names',
    }),
    result: z.union([maybeGetter, z.array(maybeGetter)]).optional(),
    expected: z.union([maybeGetter, z.array(maybeGetter)]).optional(),
    options: z.union([optionsObject, z.array(optionsObject)]).optional(),
    conj: z.enum(['and', 'or']).optional(),
    postconfig: z.array(typedStep).optional(),
  })
  .superRefine((evaluator, ctx) => {
    if (!Array.isArray(evaluator.func)) {
      for (const key of ['result', 'expected'] as const) {
        if (Array.isArray(evaluator[key]))
          ctx.addIssue({ code: 'custom', path: [key], message: `expected one getter config, as func is a single metric` });
      }
      return;
    }
    const count = evaluator.func.length;
    for (const key of ['result', 'expected', 'options'] as const) {
      const value = evaluator[key];
      if (Array.isArray(value) && value.length !== count)
        ctx.addIssue({ code: 'custom', path: [key], message: `expected a list of ${count} entries, one per metric in func (got ${value.length})` });
    }
  });

/** Our extension: a known solution, steps of actions (pyautogui code strings or computer_13 objects). */
export const solution = z.array(
  z.array(z.union([z.string(), z.looseObject({ action_type: z.string() })], { error: 'expected an action: a code string or {action_type, ...}' })),
);

export const stringList = z.array(z.string());
