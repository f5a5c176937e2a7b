// toMatchPptx: OSWorld's compare_pptx_files as an assertion, with its examine_* options; a failure names the slide,
// shape (paragraph, run) and property with both values.
import { type PptxDifference, comparePptxFilesDetailed } from '../eval/metrics/pptx/compare.ts';
import { defineMatcher } from './framework.ts';
import type { MatcherVerdict } from './framework.ts';

/** compare_pptx_files' options: `examine_*` switches and `approximately_tolerance`. */
export type PptxMatchOptions = Record<string, boolean | number | undefined>;

/** Where a difference is, as "slide 1, shape 3: " (empty when the comparison did not get that far). */
export function pptxLocation(difference: PptxDifference): string {
  const where = (['slide', 'shape', 'paragraph', 'run'] as const).filter((part) => difference[part] !== undefined).map((part) => `${part} ${difference[part]}`);
  return where.length ? `${where.join(', ')}: ` : '';
}

export async function matchPptx(received: unknown, expected: unknown, options: PptxMatchOptions = {}): Promise<MatcherVerdict> {
  const { score, difference } = await comparePptxFilesDetailed(received, expected, options);
  if (!difference) return { pass: score === 1, message: 'the presentations match (compare_pptx_files = 1)' };
  const message =
    `compare_pptx_files = 0: ${pptxLocation(difference)}${difference.property} differs\n` +
    `  received: ${JSON.stringify(difference.received)}\n  expected: ${JSON.stringify(difference.expected)}`;
  return { pass: false, message, actual: difference.received, expected: difference.expected };
}

export const toMatchPptx = defineMatcher('toMatchPptx', matchPptx, { golden: true });
