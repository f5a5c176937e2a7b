// OSWorld: `examples/<domain>/<id>.json` (and examples_windows/), `config[]` of `{type, parameters}` and an
// `evaluator`; its setup steps (Spider2-V's tasks use them too). The metrics and getters under OSWorld's names are
// the shared library in src/eval/.
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
};
