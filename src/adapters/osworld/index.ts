// OSWorld: `examples/<domain>/<id>.json` (and examples_windows/), `config[]` of `{type, parameters}` and an
// `evaluator`; its setup steps (Spider2-V's tasks use them too). The metrics and getters under OSWorld's names are
// the shared library in src/eval/.
import type { Command } from '../../task/commands.ts';
import type { BenchmarkAdapter } from '../adapter.ts';
import { normalizeEvaluator, normalizeSteps, osworldTaskSchema } from './schema.ts';
import { osworldSteps } from './setup-steps.ts';

export const osworld: BenchmarkAdapter = {
  name: 'osworld',
  description: 'task file in OSWorld format',
  claims: () => true,
  fallback: true,
  schemaFor: () => osworldTaskSchema,
  read: (data) => ({ setup: normalizeSteps(data.config as never), evaluator: normalizeEvaluator(data.evaluator as never) }),
  setupSteps: osworldSteps,
  stepCommands: {
    launch: (p) => [commandOf(p)],
    execute: (p) => [commandOf(p)],
    command: (p) => [commandOf(p)],
    execute_with_verification: (p) => [commandOf(p), { command: (p.verification as { command_success?: unknown } | undefined)?.command_success, shell: true }],
  },
  getterCommands: {
    vm_command_line: (getter) => [{ command: getter.command, shell: getter.shell === true }],
    vm_command_error: (getter) => [{ command: getter.command, shell: getter.shell === true }],
  },
};

function commandOf(parameters: Record<string, unknown>): Command {
  return { command: parameters.command, shell: parameters.shell === true };
}
