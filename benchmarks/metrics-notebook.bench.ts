// Per-metric time of the GUI-OS notebook/CSV/text metrics on their fixtures (vitest bench; medians printed).
// Run: vitest bench --run --project unit benchmarks/metrics-notebook.bench.ts
import { join } from 'node:path';
import { describe, test } from 'vitest';
import type { Metric } from '../src/eval/registry.ts';
import { guiosMetrics, guiosVariants } from '../src/adapters/guios/metrics.ts';
import { notebookMetrics } from '../src/adapters/guios/notebook-metrics.ts';

const dir = join(import.meta.dirname, '..', 'fixtures', 'notebooks');
const f = (name: string) => join(dir, name);

function report(result: { name: string; latency?: { p50?: number } }): void {
  const median = result.latency?.p50;
  if (median !== undefined) console.log(`median ${result.name}: ${median.toFixed(3)} ms`);
}

const cases: Array<[string, Metric, unknown, unknown, Record<string, unknown>]> = [
  ['compare_notebook_outputs', notebookMetrics.compare_notebook_outputs, f('guios/AdaBoost.ipynb'), f('guios/AdaBoost_gold.ipynb'), {}],
  ['compare_notebook_cells', notebookMetrics.compare_notebook_cells, f('guios/tensor_gold.ipynb'), f('guios/tensor_gold.ipynb'), {}],
  ['compare_ipynb_files', notebookMetrics.compare_ipynb_files, f('guios/submission_gold.ipynb'), f('guios/submission_gold.ipynb'), {}],
  ['is_jupyter_cell_executed', notebookMetrics.is_jupyter_cell_executed, f('executed.ipynb'), undefined, { expected: [] }],
  ['are_jupyter_outputs_cleared', notebookMetrics.are_jupyter_outputs_cleared, f('cleared.ipynb'), undefined, { expected: [] }],
  ['compare_jupyterlab_images (640x480 vs 320x240)', notebookMetrics.compare_jupyterlab_images, f('guios/centuries_half.png'), f('guios/centuries_gold.png'), {}],
  ['guios:compare_csv', guiosVariants.compare_csv, f('result-reordered.csv'), f('expected.csv'), { ignore_order: true }],
  ['guios:compare_text_file', guiosVariants.compare_text_file, f('code-tabs.txt'), f('code-gold.txt'), { ignore_blanks: true }],
  ['compare_script_logs', guiosMetrics.compare_script_logs, f('eval-success.log'), undefined, { rules: { include: ['SUCCESS'], exclude: ['FAILURE'] } }],
];

describe('notebook and GUI-OS metrics on fixtures', () => {
  for (const [name, metric, result, expected, options] of cases) {
    test(name, async ({ bench }) => {
      report(await bench(name, async () => {
        await metric(result, expected, options);
      }).run());
    });
  }
});
