// Per-metric time on fixtures (vitest 5 bench: the reporter shows the median per case), and the engine's own overhead around a
// metric. Run: vitest bench --run --project unit benchmarks/eval-engine.bench.ts
import { join } from 'node:path';
import { describe, test } from 'vitest';
import { registerBuiltins } from '../src/eval/builtins.ts';
import { evaluate } from '../src/eval/engine.ts';
import { metrics } from '../src/eval/registry.ts';
import { runMetric } from '../src/eval/run-metric.ts';
import { makeEnv, makeTask } from '../test/eval/engine-helpers.ts';

registerBuiltins();

/** Prints the median, which the bench table leaves out. */
function report(result: { name: string; latency?: { p50?: number } }): void {
  const median = result.latency?.p50;
  if (median !== undefined) console.log(`median ${result.name}: ${median.toFixed(4)} ms`);
}
const root = join(import.meta.dirname, '..');
const pdf = (name: string) => join(root, 'test/matchers/fixtures', `${name}.pdf`);
const image = (name: string) => join(root, 'fixtures/images', `${name}.png`);

// Each case: metric name and arguments; cases whose metric is not registered yet are left out.
const cases: [string, unknown, unknown, Record<string, unknown>][] = [
  ['compare_pdfs', pdf('report-changed'), pdf('report'), {}],
  ['compare_images', image('scene-one-pixel-changed'), image('scene'), {}],
  ['check_structure_sim', image('scene-copy'), image('scene'), {}],
  ['exact_match', 'Google', { expected: 'Google' }, {}],
  ['check_include_exclude', 'python3 venv', { include: ['python3'], exclude: ['jupyter-kernel'] }, {}],
];

describe('metrics on fixtures', () => {
  for (const [name, result, expected, options] of cases) {
    if (!metrics.get(name)) continue;
    test(name, async ({ bench }) => {
      report(await bench(name, async () => {
        await runMetric(name, result, expected, options);
      }).run());
    });
  }
});

describe('engine overhead', () => {
  const env = makeEnv();
  const task = makeTask({
    kind: 'conj',
    conj: 'and',
    children: [1, 2, 3].map(() => ({
      kind: 'metric' as const,
      func: 'check_include_exclude',
      result: { type: 'rule', rules: 'python3 venv' },
      expected: { type: 'rule', rules: { include: ['python3'] } },
      options: {},
    })),
  });
  test('evaluate(): and of 3 rule/value metrics', async ({ bench }) => {
    report(await bench('evaluate(): and of 3 rule/value metrics', async () => {
      await evaluate(task, env, { runSetupSteps: async () => {} });
    }).run());
  });
});
