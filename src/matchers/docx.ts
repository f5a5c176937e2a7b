// toMatchDocx: OSWorld's compare_docx_files as an assertion. The options are compare_docx_files' own
// (ignore_blanks, ignore_case, ignore_order, content_only, fuzzy_match, delete_empty_lines) plus `threshold` for the
// float modes; a failure names the first differing paragraph with both texts.
import { compareDocxFilesDetailed } from '../eval/metrics/docx/compare-text.ts';
import { defineMatcher } from './framework.ts';
import type { MatcherVerdict } from './framework.ts';

export interface DocxMatchOptions {
  ignore_blanks?: boolean;
  ignore_case?: boolean;
  ignore_order?: boolean;
  content_only?: boolean;
  fuzzy_match?: boolean;
  fuzzy_match_threshold?: number;
  delete_empty_lines?: boolean;
  /** Minimum score in [0, 1] for the float modes (content_only, fuzzy_match); default 1. */
  threshold?: number;
}

/** The check itself: received and expected are .docx (or both .odt) paths. */
export async function matchDocx(received: unknown, expected: unknown, options: DocxMatchOptions = {}): Promise<MatcherVerdict> {
  const { threshold = 1, ...metricOptions } = options;
  const { score, difference } = await compareDocxFilesDetailed(received, expected, metricOptions);
  const pass = score >= threshold;
  let message = `compare_docx_files score ${score} ${pass ? 'meets' : 'is below'} ${threshold}`;
  if (difference) {
    message += `: ${difference.reason}`;
    if (difference.paragraph !== undefined) {
      message += `\nparagraph ${difference.paragraph}:\n  received: ${JSON.stringify(difference.received)}\n  expected: ${JSON.stringify(difference.expected)}`;
    }
  }
  return { pass, message, actual: difference?.received, expected: difference?.expected };
}

export const toMatchDocx = defineMatcher('toMatchDocx', matchDocx, { golden: true });
