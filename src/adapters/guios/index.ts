// GUI-OS: task files beside their inputs (`examples/<tool>/<id>/<id>.json`), `config[]` of `{func, arguments}` and
// `evaluation {func, arguments}`, its own setup steps, its metrics (Jupyter's among them) and its own variants of two
// OSWorld metrics.
import { readdirSync } from 'node:fs';
import { dirname, extname } from 'node:path';
import { scriptCommand } from '../../task/commands.ts';
import type { BenchmarkAdapter } from '../adapter.ts';
import { guiosMetrics, guiosVariants } from './metrics.ts';
import { notebookMetrics } from './notebook-metrics.ts';
import { guiosTaskSchema, normalizeGuiosEvaluation, normalizeGuiosSteps } from './schema.ts';
import { guiosSteps } from './setup-steps.ts';

/** `evaluation`, or `{func, arguments}` steps: the GUI-OS shape (Spider2-V has a file or two of it too). */
export function isGuiosShaped(data: Record<string, unknown>): boolean {
  const steps = Array.isArray(data.config) ? data.config : [];
  return 'evaluation' in data || steps.some((step) => typeof step === 'object' && step !== null && 'func' in step);
}

/** GUI-OS tasks live beside their inputs; a GUI-OS-shaped file in a folder of JSON files only is Spider2-V's. */
function holdsTaskFiles(dir: string): boolean {
  try {
    return readdirSync(dir).some((name) => extname(name) !== '.json');
  } catch {
    return false;
  }
}

export const guios: BenchmarkAdapter = {
  name: 'guios',
  description: 'task file in GUI-OS format',
  claims: (file, data) => isGuiosShaped(data) && holdsTaskFiles(dirname(file)),
  schemaFor: () => guiosTaskSchema,
  read: (data) => ({ setup: normalizeGuiosSteps(data.config as never), evaluator: normalizeGuiosEvaluation(data.evaluation as never) }),
  setupSteps: guiosSteps,
  metrics: { ...guiosMetrics, ...notebookMetrics },
  metricVariants: guiosVariants,
  // Its scripts sit in the task's folder (init.sh, eval scripts): the programs they run count too.
  stepCommands: { upload_script_and_execute: (p, task) => [{ command: ['bash'], shell: false }, ...scriptCommand(task, p.local_path)] },
  getterCommands: { vm_script_output: (getter, task) => [{ command: ['bash'], shell: false }, ...scriptCommand(task, getter.script)] },
};
