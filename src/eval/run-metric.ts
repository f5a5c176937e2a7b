// The public way to call one metric directly, e.g. in a user's own test:
//   const score = await runMetric('compare_pdfs', 'out.pdf', 'gold.pdf');
import { registerBuiltins } from './builtins.ts';
import { metrics } from './registry.ts';
import type { Options } from './registry.ts';
import type { SourceFormat } from '../task/types.ts';
import { MetricOptionsError } from './errors.ts';

/**
 * Runs a registered metric by its format name and returns the raw score (floats stay floats). `result` and
 * `expected` are what the metric takes: usually local file paths, sometimes values. `format` picks that format's own
 * variant of the name (GUI-OS's compare_csv); without it, OSWorld's. An unknown name throws an error that lists the
 * closest known names.
 *
 * GUI-OS metrics take keyword arguments; they go where the engine puts them for a GUI-OS task: `vm_*` (the file from
 * the desktop) → `result`, `local_*` (the gold file) → `expected`, the `expected` list of is_jupyter_cell_executed /
 * are_jupyter_outputs_cleared and the `rules` of compare_script_logs → `expected` or `options` (either works), every
 * other keyword (`ignore_order`, `cell_type`, …) → `options`.
 */
export async function runMetric(name: string, result: unknown, expected?: unknown, options: Options = {}, format?: SourceFormat): Promise<number> {
  registerBuiltins();
  const metric = metrics.get(name, format);
  if (!metric) throw new MetricOptionsError(metrics.unknownMessage(name));
  const score = await metric(result, expected, options);
  return typeof score === 'boolean' ? Number(score) : score;
}
