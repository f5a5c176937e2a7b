// toPassMetric: any registered metric as an assertion. `await expect('out.xlsx').toPassMetric('compare_table', 'gold.xlsx', {rules})`.
import { runMetric } from '../eval/run-metric.ts';
import type { Options } from '../eval/registry.ts';
import { explainScore } from './explain.ts';
import { defineMatcher } from './framework.ts';

/**
 * Passes when the metric scores 1, OSWorld's success (a float metric passes only at a perfect 1.0). Below 1, the
 * message says why as far as the metric lets us know (explain.ts).
 */
export const toPassMetric = defineMatcher('toPassMetric', async (received: unknown, name: string, expected?: unknown, options?: Options) => {
  const score = await runMetric(name, received, expected, options ?? {});
  const why = score === 1 ? '' : `\n${await explainScore(name, received, expected, options ?? {})}`;
  return {
    pass: score === 1,
    message: `metric ${name} scored ${score} (1 passes)${why}`,
    actual: score,
    expected: 1,
  };
});
