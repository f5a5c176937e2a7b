// Every GUI-OS metric called both ways: with the task's keyword arguments as the engine maps them (vm_* → result,
// local_* → expected, the rest → options) and through runMetric's positional parameters; the scores must agree.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMetric } from '../../../src/eval/run-metric.ts';
import { normalizeGuiosEvaluation } from '../../../src/adapters/guios/schema.ts';
import type { GetterSpec, MetricNode } from '../../../src/task/types.ts';
import { registerAdapters } from '../../../src/adapters/index.ts';

// The formats' own setup steps, getters and metrics (loading a task file registers them; these tests load none).
registerAdapters();

const f = (name: string) => join(import.meta.dirname, '..', '..', '..', 'fixtures', 'notebooks', name);

/** A GUI-OS call, the same call positionally, and the score both must give. */
interface Case {
  args: Record<string, unknown>;
  positional: [result: unknown, expected: unknown, options: Record<string, unknown>];
  score: number;
}

const cases: Record<string, Case[]> = {
  compare_csv: [
    { args: { local_expected: f('expected.csv'), vm_result: f('result-reordered.csv'), ignore_order: true }, positional: [f('result-reordered.csv'), f('expected.csv'), { ignore_order: true }], score: 1 },
    { args: { local_expected: f('expected.csv'), vm_result: f('result-reordered.csv'), ignore_order: false }, positional: [f('result-reordered.csv'), f('expected.csv'), { ignore_order: false }], score: 0 },
  ],
  compare_text_file: [
    { args: { local_expected_file: f('code-gold.txt'), vm_result_file: f('code-tabs.txt'), ignore_blanks: true }, positional: [f('code-tabs.txt'), f('code-gold.txt'), { ignore_blanks: true }], score: 1 },
    { args: { local_expected_file: f('code-gold.txt'), vm_result_file: f('code-tabs.txt'), ignore_blanks: false }, positional: [f('code-tabs.txt'), f('code-gold.txt'), { ignore_blanks: false }], score: 0 },
  ],
  compare_script_logs: [
    { args: { eval_script: 'check.sh', vm_eval_logs: f('eval-success.log'), rules: { include: ['SUCCESS'], exclude: ['FAILURE'] } }, positional: [f('eval-success.log'), { include: ['SUCCESS'], exclude: ['FAILURE'] }, {}], score: 1 },
    { args: { eval_script: 'check.sh', vm_eval_logs: f('eval-failure.log'), rules: { include: ['SUCCESS'], exclude: ['FAILURE'] } }, positional: [f('eval-failure.log'), { include: ['SUCCESS'], exclude: ['FAILURE'] }, {}], score: 0 },
  ],
  compare_notebook_outputs: [
    { args: { local_expected: f('executed.ipynb'), vm_result: f('executed-renumbered.ipynb') }, positional: [f('executed-renumbered.ipynb'), f('executed.ipynb'), {}], score: 1 },
    { args: { local_expected: f('executed.ipynb'), vm_result: f('executed-wrong.ipynb') }, positional: [f('executed-wrong.ipynb'), f('executed.ipynb'), {}], score: 0 },
  ],
  compare_notebook_cells: [
    { args: { local_expected: f('cleared.ipynb'), vm_result: f('cleared-whitespace.ipynb') }, positional: [f('cleared-whitespace.ipynb'), f('cleared.ipynb'), {}], score: 1 },
    { args: { local_expected: f('cleared.ipynb'), vm_result: f('edited-source.ipynb') }, positional: [f('edited-source.ipynb'), f('cleared.ipynb'), {}], score: 0 },
  ],
  compare_ipynb_files: [
    { args: { local_expected: f('executed.ipynb'), vm_result: f('executed-renumbered.ipynb') }, positional: [f('executed-renumbered.ipynb'), f('executed.ipynb'), {}], score: 1 },
    { args: { local_expected: f('executed.ipynb'), vm_result: f('executed-with-pip.ipynb') }, positional: [f('executed-with-pip.ipynb'), f('executed.ipynb'), {}], score: 0 },
  ],
  is_jupyter_cell_executed: [
    { args: { vm_result: f('executed.ipynb'), expected: [] }, positional: [f('executed.ipynb'), [], {}], score: 1 },
    { args: { vm_result: f('cleared.ipynb'), expected: [] }, positional: [f('cleared.ipynb'), [], {}], score: 0 },
  ],
  are_jupyter_outputs_cleared: [
    { args: { vm_result: f('cleared.ipynb'), expected: [] }, positional: [f('cleared.ipynb'), [], {}], score: 1 },
    { args: { vm_result: f('executed.ipynb'), expected: [] }, positional: [f('executed.ipynb'), [], {}], score: 0 },
  ],
  compare_jupyterlab_images: [
    { args: { local_expected_image: f('guios/centuries_gold.png'), vm_result_image: f('guios/centuries_half.png') }, positional: [f('guios/centuries_half.png'), f('guios/centuries_gold.png'), {}], score: 1 },
    { args: { local_expected_image: f('guios/centuries_gold.png'), vm_result_image: f('guios/centuries_half.png'), similarity_threshold: 1.5 }, positional: [f('guios/centuries_half.png'), f('guios/centuries_gold.png'), { similarity_threshold: 1.5 }], score: 0 },
  ],
};

/** What the engine's getters would hand over for a GUI-OS task's keyword arguments (files already local here). */
function viaKeywords(func: string, args: Record<string, unknown>): Promise<number> {
  const node = normalizeGuiosEvaluation({ func, arguments: args })!.root as MetricNode;
  const local = (spec: GetterSpec | undefined) => (spec?.type === 'vm_script_output' ? spec.log : spec?.path);
  return runMetric(func, local(node.result), local(node.expected), node.options, 'guios');
}

describe('GUI-OS metrics take their keyword arguments both as the engine passes them and positionally', () => {
  for (const [func, list] of Object.entries(cases)) {
    it(func, async () => {
      for (const { args, positional, score } of list) {
        expect(await viaKeywords(func, args), `${func} keywords ${JSON.stringify(args)}`).toBe(score);
        expect(await runMetric(func, ...positional, 'guios'), `${func} positional`).toBe(score);
      }
    });
  }

  it('runMetric(is_jupyter_cell_executed, file, []) no longer throws for want of options.expected', async () => {
    await expect(runMetric('is_jupyter_cell_executed', f('executed.ipynb'), [])).resolves.toBe(1);
  });
});
