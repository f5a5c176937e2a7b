// The public way to call one metric directly, e.g. in a user's own test:
//   const score = await runMetric('compare_pdfs', 'out.pdf', 'gold.pdf');
import { registerBuiltins } from './builtins.ts';
import { findMetric, metrics } from './registry.ts';
import type { Options } from './registry.ts';
import { closeNames } from '../shared/close-names.ts';


/**
 * Runs a registered metric by its format name and returns the raw score (floats stay floats). `result` and
 * `expected` are what the metric takes: usually local file paths, sometimes values. A GUI-OS variant is reached as
 * `guios:<name>`. An unknown name throws an error that lists the closest known names.
 */
export async function runMetric(name: string, result: unknown, expected?: unknown, options: Options = {}): Promise<number> {
  registerBuiltins();
  const metric = findMetric(name);
  if (!metric) throw new Error(unknownMetricMessage(name));
  const score = await metric(result, expected, options);
  return typeof score === 'boolean' ? Number(score) : score;
}

export function unknownMetricMessage(name: string): string {
  const close = closeNames(name, [...metrics.keys()]);
  return close.length
    ? `unknown metric "${name}"; did you mean ${close.map((n) => `"${n}"`).join(', ')}?`
    : `unknown metric "${name}" (${metrics.size} metrics are registered; none is close)`;
}
