// GUI-OS's Jupyter evaluators (src/benchmark/tasks/eval/jupyter.py). The engine maps `vm_result*` to `result` (the
// notebook/image fetched from the desktop) and `local_expected*` to `expected` (the gold file in the task folder);
// other arguments arrive as options. Notebooks are read as `nbformat.read(f, as_version=4)` does: JSON, with
// list-valued sources, stream texts and text mime bundles joined into strings.
import { readFile } from 'node:fs/promises';
import type { Metric, Options } from '../../eval/registry.ts';
import { openImage } from '../../eval/formats/image/pil-image.ts';
import { histogramCorrelation, normalisedHistogram, opencvGrey, resizeArea } from '../../eval/formats/image/opencv.ts';
import { filePath } from '../../eval/metrics/arguments.ts';
import { pythonEquals } from '../../python/equality.ts';
import { pythonStrip } from '../../python/str.ts';
import { MalformedInputError } from '../../errors.ts';
import { MetricOptionsError } from '../../eval/errors.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Output = { [key: string]: Json };

interface NotebookCell {
  cell_type: string;
  source: string;
  execution_count?: number | null;
  outputs?: Output[];
  [key: string]: Json | undefined;
}

/** nbformat.read(path, as_version=4) reduced to what the evaluators read. */
async function readNotebook(path: string): Promise<NotebookCell[]> {
  let nb: { nbformat?: number; cells?: unknown };
  try {
    nb = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new MalformedInputError(`cannot read notebook ${path}: ${(error as Error).message}`);
  }
  if (nb.nbformat !== 4) throw new MalformedInputError(`notebook ${path} is nbformat ${nb.nbformat}; only version 4 is supported`);
  if (!Array.isArray(nb.cells)) throw new MalformedInputError(`notebook ${path} has no "cells" list`);
  return nb.cells.map((raw, index) => {
    const cell = raw as NotebookCell;
    if (typeof cell?.cell_type !== 'string') throw new MalformedInputError(`notebook ${path}: cell ${index} has no cell_type`);
    if (Array.isArray(cell.source)) cell.source = cell.source.join('');
    if (cell.cell_type === 'code') {
      for (const output of cell.outputs ?? []) rejoinOutput(output);
    }
    return cell;
  });
}

function rejoinOutput(output: Output): void {
  const type = output.output_type;
  if (type === 'execute_result' || type === 'display_data') {
    const data = output.data;
    if (data && typeof data === 'object' && !Array.isArray(data)) {
      for (const [mime, value] of Object.entries(data)) {
        // nbformat joins list values of non-JSON mime types (text/plain, image/png…); JSON bundles stay as they are.
        if (!isJsonMime(mime) && Array.isArray(value) && value.every((v) => typeof v === 'string')) data[mime] = value.join('');
      }
    }
  } else if (type && Array.isArray(output.text)) {
    output.text = (output.text as string[]).join('');
  }
}

function isJsonMime(mime: string): boolean {
  return mime === 'application/json' || (mime.startsWith('application/') && mime.endsWith('+json'));
}

async function notebookPair(result: unknown, expected: unknown, metric: string): Promise<[NotebookCell[], NotebookCell[]] | null> {
  const resultPath = filePath(result, `${metric} result (vm_result)`);
  const expectedPath = filePath(expected, `${metric} expected (local_expected)`);
  if (!resultPath || !expectedPath) return null;
  return [await readNotebook(resultPath), await readNotebook(expectedPath)];
}

function outputsOf(cell: NotebookCell, index: number): Output[] {
  if (!Array.isArray(cell.outputs)) throw new MalformedInputError(`code cell ${index} has no "outputs" list`);
  return cell.outputs;
}

const isStdout = (o: Output) => 'name' in o && o.name === 'stdout';
const hasPlainText = (o: Output) => !!o.data && typeof o.data === 'object' && 'text/plain' in (o.data as object);

/**
 * compare_notebook_outputs(local_expected, vm_result): same cell count and types; per code cell the kept outputs
 * (stdout streams — on the result side without pip's "Requirement already satisfied:"/"Successfully installed" —
 * and outputs with text/plain data) must match in number; streams must be equal as whole dicts, data outputs on
 * text/plain. Sources and markdown are not compared. A stream paired with a data output fails as OSWorld's KeyError.
 */
async function compareNotebookOutputs(result: unknown, expected: unknown): Promise<number> {
  const pair = await notebookPair(result, expected, 'compare_notebook_outputs');
  if (!pair) return 0;
  const [resultCells, expectedCells] = pair;
  if (resultCells.length !== expectedCells.length) return 0;
  for (let i = 0; i < resultCells.length; i++) {
    const got = resultCells[i];
    const want = expectedCells[i];
    if (got.cell_type !== want.cell_type) return 0;
    if (got.cell_type !== 'code') continue;
    const gotOutputs = outputsOf(got, i).filter(
      (o) =>
        (isStdout(o) && !String(o.text).includes('Requirement already satisfied:') && !String(o.text).includes('Successfully installed')) ||
        hasPlainText(o),
    );
    const wantOutputs = outputsOf(want, i).filter((o) => isStdout(o) || hasPlainText(o));
    if (gotOutputs.length !== wantOutputs.length) return 0;
    for (let j = 0; j < gotOutputs.length; j++) {
      const g = gotOutputs[j];
      const w = wantOutputs[j];
      if ('name' in g && !pythonEquals(g, w)) return 0;
      if ('data' in g) {
        if (!hasPlainText(w)) throw new MalformedInputError(`compare_notebook_outputs: cell ${i} output ${j} is data in the result but not in the expected notebook (GUI-OS raises KeyError)`);
        const gotText = (g.data as Output)['text/plain'];
        const wantText = (w.data as Output)['text/plain'];
        if (!pythonEquals(gotText, wantText)) return 0;
      }
    }
  }
  return 1;
}

/** compare_notebook_cells(local_expected, vm_result): same cell count; each cell's type and stripped source equal. */
async function compareNotebookCells(result: unknown, expected: unknown): Promise<number> {
  const pair = await notebookPair(result, expected, 'compare_notebook_cells');
  if (!pair) return 0;
  const [resultCells, expectedCells] = pair;
  if (resultCells.length !== expectedCells.length) return 0;
  return resultCells.every((cell, i) => cell.cell_type === expectedCells[i].cell_type && pythonStrip(cell.source) === pythonStrip(expectedCells[i].source)) ? 1 : 0;
}

/** The "sanitized" cell GUI-OS compares in compare_ipynb_files: type, stripped source, joined stripped text outputs. */
function sanitize(cell: NotebookCell): string {
  const simple: Record<string, string> = { cell_type: cell.cell_type, source: pythonStrip(cell.source ?? '') };
  if (cell.cell_type === 'code') {
    simple.outputs = (cell.outputs ?? [])
      .filter((o) => 'text' in o)
      .map((o) => pythonStrip(String(o.text ?? '')))
      .join('\n');
  }
  return JSON.stringify(simple);
}

/** compare_ipynb_files(local_expected, vm_result): the sanitized cell lists are equal (metadata and counts ignored). */
async function compareIpynbFiles(result: unknown, expected: unknown): Promise<number> {
  const pair = await notebookPair(result, expected, 'compare_ipynb_files');
  if (!pair) return 0;
  const [a, b] = pair.map((cells) => cells.map(sanitize));
  return a.length === b.length && a.every((cell, i) => cell === b[i]) ? 1 : 0;
}

/** GUI-OS's `expected` keyword: from the options (as the engine passes it), else the positional `expected`. */
function indexList(options: Options, positional: unknown, metric: string): number[] {
  const expected = options.expected ?? positional;
  if (!Array.isArray(expected) || !expected.every((v) => Number.isInteger(v))) {
    throw new MetricOptionsError(`${metric}: option "expected" must be a list of cell indices, got ${JSON.stringify(expected)}`);
  }
  return expected as number[];
}

function checkVersion(options: Options, metric: string): void {
  const version = options.version ?? 4;
  if (version !== 4) throw new MetricOptionsError(`${metric}: only notebook version 4 is supported, got ${JSON.stringify(version)}`);
}

/**
 * is_jupyter_cell_executed(vm_result, expected, cell_type="code", version=4): the indices of cells of that type
 * without an execution_count (missing, null or 0) must equal `expected` (usually []).
 */
async function isJupyterCellExecuted(result: unknown, expectedIndices: unknown, options: Options = {}): Promise<number> {
  const path = filePath(result, 'is_jupyter_cell_executed result (vm_result)');
  if (!path) return 0;
  const expected = indexList(options, expectedIndices, 'is_jupyter_cell_executed');
  checkVersion(options, 'is_jupyter_cell_executed');
  const cellType = options.cell_type ?? 'code';
  const cells = await readNotebook(path);
  const unexecuted = cells.flatMap((cell, i) => (cell.cell_type === cellType && !cell.execution_count ? [i] : []));
  return unexecuted.length === expected.length && unexecuted.every((v, i) => v === expected[i]) ? 1 : 0;
}

/**
 * are_jupyter_outputs_cleared(vm_result, expected, cell_type="code"): the indices of cells of that type with an
 * output carrying text, data or ename, compared with `expected` after sorting both.
 */
async function areJupyterOutputsCleared(result: unknown, expectedIndices: unknown, options: Options = {}): Promise<number> {
  const path = filePath(result, 'are_jupyter_outputs_cleared result (vm_result)');
  if (!path) return 0;
  const expected = [...indexList(options, expectedIndices, 'are_jupyter_outputs_cleared')].sort((x, y) => x - y);
  checkVersion(options, 'are_jupyter_outputs_cleared');
  const cellType = options.cell_type ?? 'code';
  const cells = await readNotebook(path);
  const withOutputs = cells.flatMap((cell, i) =>
    cell.cell_type === cellType && (cell.outputs ?? []).some((o) => 'text' in o || 'data' in o || 'ename' in o) ? [i] : [],
  );
  return withOutputs.length === expected.length && withOutputs.every((v, i) => v === expected[i]) ? 1 : 0;
}

/**
 * compare_jupyterlab_images(local_expected_image, vm_result_image, similarity_threshold=0.95): both images in
 * OpenCV grey, the one with more pixels INTER_AREA-resized to the other's size (the result when equal), 256-bin
 * histograms min-max normalised, correlation (HISTCMP_CORREL) ≥ threshold.
 */
async function compareJupyterlabImages(result: unknown, expected: unknown, options: Options = {}): Promise<number> {
  const resultPath = filePath(result, 'compare_jupyterlab_images result (vm_result_image)');
  const expectedPath = filePath(expected, 'compare_jupyterlab_images expected (local_expected_image)');
  if (!resultPath || !expectedPath) return 0;
  const threshold = options.similarity_threshold ?? 0.95;
  if (typeof threshold !== 'number') throw new MetricOptionsError(`compare_jupyterlab_images: similarity_threshold must be a number, got ${JSON.stringify(threshold)}`);
  let first = opencvGrey(await openImage(expectedPath));
  let second = opencvGrey(await openImage(resultPath));
  if (first.width * first.height > second.width * second.height) first = resizeArea(first, second.width, second.height);
  else second = resizeArea(second, first.width, first.height);
  return histogramCorrelation(normalisedHistogram(first), normalisedHistogram(second)) >= threshold ? 1 : 0;
}

export const notebookMetrics: Record<string, Metric> = {
  compare_notebook_outputs: compareNotebookOutputs,
  compare_notebook_cells: compareNotebookCells,
  compare_ipynb_files: compareIpynbFiles,
  is_jupyter_cell_executed: isJupyterCellExecuted,
  are_jupyter_outputs_cleared: areJupyterOutputsCleared,
  compare_jupyterlab_images: compareJupyterlabImages,
};
