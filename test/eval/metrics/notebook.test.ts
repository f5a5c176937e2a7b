// GUI-OS notebook evaluators on real notebooks: small ones written by scripts/fixtures/notebooks.ts, real gold
// notebooks/images copied from GUI-OS tasks (fixtures/notebooks/guios, Apache-2.0), and — when /work/shared is
// mounted — every gold file of the 44 real tasks. Calling convention: result = vm_result*, expected = local_expected*,
// everything else in options.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { registerAdapters } from '../../../src/adapters/index.ts';
import { histogramCorrelation } from '../../../src/eval/formats/image/opencv.ts';
import { notebookMetrics } from '../../../src/adapters/guios/notebook-metrics.ts';
import { metrics } from '../../../src/eval/registry.ts';

const dir = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'notebooks');
const nb = (name: string) => join(dir, name);
const m = notebookMetrics;

describe('compare_notebook_outputs', () => {
  it('passes when stdout streams and text/plain results match, whatever the counts and metadata', async () => {
    expect(await m.compare_notebook_outputs(nb('executed-renumbered.ipynb'), nb('executed.ipynb'), {})).toBe(1);
    expect(await m.compare_notebook_outputs(nb('executed.ipynb'), nb('executed.ipynb'), {})).toBe(1);
  });

  it('drops pip install messages on the result side only', async () => {
    expect(await m.compare_notebook_outputs(nb('executed-with-pip.ipynb'), nb('executed.ipynb'), {})).toBe(1);
    expect(await m.compare_notebook_outputs(nb('executed.ipynb'), nb('executed-with-pip.ipynb'), {})).toBe(0);
  });

  it('fails on a different result, missing outputs, or a different cell count', async () => {
    expect(await m.compare_notebook_outputs(nb('executed-wrong.ipynb'), nb('executed.ipynb'), {})).toBe(0);
    expect(await m.compare_notebook_outputs(nb('cleared.ipynb'), nb('executed.ipynb'), {})).toBe(0);
    expect(await m.compare_notebook_outputs(nb('guios/AdaBoost_gold.ipynb'), nb('executed.ipynb'), {})).toBe(0);
  });

  it('on the real AdaBoost task: the gold passes, the untuned notebook (Accuracy 0.71) fails', async () => {
    expect(await m.compare_notebook_outputs(nb('guios/AdaBoost_gold.ipynb'), nb('guios/AdaBoost_gold.ipynb'), {})).toBe(1);
    expect(await m.compare_notebook_outputs(nb('guios/AdaBoost.ipynb'), nb('guios/AdaBoost_gold.ipynb'), {})).toBe(0);
  });

  it('scores 0 when the getter found no file', async () => {
    expect(await m.compare_notebook_outputs(null, nb('executed.ipynb'), {})).toBe(0);
  });
});

describe('compare_notebook_cells', () => {
  it('compares cell types and stripped sources', async () => {
    expect(await m.compare_notebook_cells(nb('cleared-whitespace.ipynb'), nb('cleared.ipynb'), {})).toBe(1);
    expect(await m.compare_notebook_cells(nb('executed.ipynb'), nb('cleared.ipynb'), {})).toBe(1); // outputs ignored
    expect(await m.compare_notebook_cells(nb('edited-source.ipynb'), nb('cleared.ipynb'), {})).toBe(0);
    expect(await m.compare_notebook_cells(nb('guios/tensor_gold.ipynb'), nb('guios/tensor_gold.ipynb'), {})).toBe(1);
  });
});

describe('compare_ipynb_files', () => {
  it('compares type, stripped source and joined text outputs, ignoring counts and metadata', async () => {
    expect(await m.compare_ipynb_files(nb('executed-renumbered.ipynb'), nb('executed.ipynb'), {})).toBe(1);
    expect(await m.compare_ipynb_files(nb('executed-with-pip.ipynb'), nb('executed.ipynb'), {})).toBe(0); // extra stream text
    expect(await m.compare_ipynb_files(nb('guios/submission_gold.ipynb'), nb('guios/submission_gold.ipynb'), {})).toBe(1);
    expect(await m.compare_ipynb_files(nb('guios/tensor_gold.ipynb'), nb('guios/submission_gold.ipynb'), {})).toBe(0);
  });
});

describe('is_jupyter_cell_executed', () => {
  it('lists code cells without an execution_count and compares with expected', async () => {
    expect(await m.is_jupyter_cell_executed(nb('executed.ipynb'), undefined, { expected: [] })).toBe(1);
    expect(await m.is_jupyter_cell_executed(nb('cleared.ipynb'), undefined, { expected: [] })).toBe(0);
    expect(await m.is_jupyter_cell_executed(nb('cleared.ipynb'), undefined, { expected: [1, 2, 3] })).toBe(1);
    expect(await m.is_jupyter_cell_executed(nb('cleared.ipynb'), undefined, { expected: [0], cell_type: 'markdown' })).toBe(1);
  });

  it('rejects a missing expected list with a clear error', async () => {
    await expect(m.is_jupyter_cell_executed(nb('cleared.ipynb'), undefined, {})).rejects.toThrow(/"expected" must be a list/);
  });
});

describe('are_jupyter_outputs_cleared', () => {
  it('lists code cells with text, data or error outputs and compares sorted', async () => {
    expect(await m.are_jupyter_outputs_cleared(nb('cleared.ipynb'), undefined, { expected: [] })).toBe(1);
    expect(await m.are_jupyter_outputs_cleared(nb('executed.ipynb'), undefined, { expected: [] })).toBe(0);
    expect(await m.are_jupyter_outputs_cleared(nb('executed.ipynb'), undefined, { expected: [3, 1, 2] })).toBe(1);
  });
});

describe('compare_jupyterlab_images', () => {
  it('passes for the same chart, also at half size (INTER_AREA), and fails for another picture', async () => {
    const gold = nb('guios/centuries_gold.png');
    expect(await m.compare_jupyterlab_images(gold, gold, {})).toBe(1);
    expect(await m.compare_jupyterlab_images(nb('guios/centuries_half.png'), gold, {})).toBe(1);
    const scene = join(dir, '..', 'images', 'scene.png');
    expect(await m.compare_jupyterlab_images(scene, gold, {})).toBe(0);
    expect(await m.compare_jupyterlab_images(scene, gold, { similarity_threshold: -1 })).toBe(1);
  });

  it('HISTCMP_CORREL is the Pearson correlation of the bins (hand-computed)', () => {
    // bins a = [0, 1, 0.5, 0.5], b = [1, 0, 0.5, 0.5] (rest 0 by length 4): means 0.5, cov = −0.5/4 … r = −1
    expect(histogramCorrelation(Float32Array.from([0, 1, 0.5, 0.5]), Float32Array.from([1, 0, 0.5, 0.5]))).toBeCloseTo(-1, 12);
    expect(histogramCorrelation(Float32Array.from([0, 1, 2, 3]), Float32Array.from([1, 3, 5, 7]))).toBeCloseTo(1, 12);
    // a = [1, 0, 0, 0], b = [1, 1, 0, 0]: r = (1 − 1·2/4) / sqrt((1 − 1/4)(2 − 4/4)) = 0.5 / sqrt(0.75) = 0.57735…
    expect(histogramCorrelation(Float32Array.from([1, 0, 0, 0]), Float32Array.from([1, 1, 0, 0]))).toBeCloseTo(0.5 / Math.sqrt(0.75), 12);
  });
});

const corpus = '/work/shared/corpora/guios/examples/jupyter';
describe.skipIf(!existsSync(corpus))('real GUI-OS tasks (needs /work/shared/corpora/guios; skipped when absent)', () => {
  const tasks = existsSync(corpus) ? readdirSync(corpus) : [];
  it('every notebook gold file scores 1 against itself under its task evaluator', async () => {
    let checked = 0;
    for (const id of tasks) {
      const task = JSON.parse(readFileSync(join(corpus, id, `${id}.json`), 'utf8'));
      const evaluations = task.evaluation.func === 'evaluate_multiple_notebooks' ? task.evaluation.arguments.comparisons : [task.evaluation];
      for (const { func, arguments: args } of evaluations) {
        const gold = args.local_expected ?? args.local_expected_image;
        if (!gold || !(func in m)) continue;
        const path = join(corpus, id, gold);
        expect(await m[func](path, path, {}), `${id} ${func}`).toBe(1);
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(20);
  });
});

it('registers the notebook family under GUI-OS names', () => {
  registerAdapters();
  for (const name of Object.keys(m)) expect(metrics.get(name, 'guios')).toBe(m[name]);
});
