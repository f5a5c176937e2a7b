// A recorded trajectory: the task it ran, where it comes from, and the actions it executed in order. Two layouts:
// OSWorld's results folders (`…/<domain>/<task id>/traj.jsonl`, one JSON object per step with the executed `action`),
// and a `trajectory.json` naming its task and listing its steps (README.md).
import { readFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { z } from 'zod';
import type { Action } from '../../agent/types.ts';
import { TaskFileError } from '../../task/errors.ts';

export interface Trajectory {
  file: string;
  taskId: string;
  domain: string;
  /** Who recorded it, as a solution variant name: lower-case letters, digits and dashes (`uitars-0717`). */
  variant: string;
  /** The score it got where it was recorded, when the file says. */
  score?: number;
  /** One agent step each: the actions that step executed. */
  steps: Action[][];
}

const stepAction = z.string({ error: 'expected the step\'s action: pyautogui code, or WAIT / DONE / FAIL' });
const trajectoryFileSchema = z.object({
  taskId: z.string().min(1, { error: 'expected the task id' }),
  domain: z.string().min(1, { error: 'expected the task\'s domain (its folder in OSWorld\'s examples)' }),
  agent: z.string().optional(),
  score: z.number().nullable().optional(),
  steps: z.array(z.object({ action: stepAction })).min(1, { error: 'expected at least one step' }),
});
const trajLine = z.object({ action: z.union([stepAction, z.record(z.string(), z.unknown())]) });

/** A variant name from free text: `osworld-verified-uitars-0717` stays, `UI-TARS 0717` becomes `ui-tars-0717`. */
export function variantName(text: string): string {
  const name = text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  return /^[a-z]/.test(name) ? name : `t-${name}`;
}

export function readTrajectory(file: string, variant?: string): Trajectory {
  const text = readFileSync(file, 'utf8');
  if (file.endsWith('.jsonl')) {
    // <…>/<domain>/<task id>/traj.jsonl: each line one executed step.
    const folder = dirname(file);
    const steps = text.split('\n').filter((line) => line.trim()).map((line, index) => {
      const parsed = trajLine.safeParse(JSON.parse(line));
      if (!parsed.success) throw new TaskFileError(file, `[line ${index + 1}].action`, parsed.error.issues[0].message);
      return [parsed.data.action as Action];
    });
    return { file, taskId: basename(folder), domain: basename(dirname(folder)), variant: variant ?? variantName(basename(dirname(dirname(folder)))), steps };
  }
  const parsed = trajectoryFileSchema.safeParse(JSON.parse(text));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new TaskFileError(file, issue.path.join('.') || '(top level)', issue.message);
  }
  const data = parsed.data;
  return {
    file,
    taskId: data.taskId,
    domain: data.domain,
    variant: variant ?? variantName(data.agent ?? basename(dirname(dirname(dirname(file))))),
    ...(typeof data.score === 'number' ? { score: data.score } : {}),
    steps: data.steps.map((step) => [step.action]),
  };
}
