// Why a metric gave its score, in words: for the metrics with a detailed comparison (tables, documents, slides, PDF
// text) the first difference found; for any other, what it was given — an excerpt of the result and the expected value,
// or which file is missing — so a 0 is never the whole story.
import { existsSync, statSync } from 'node:fs';
import { compareDocxFilesDetailed } from '../eval/metrics/docx/compare-text.ts';
import { pdfText } from '../eval/formats/pdf.ts';
import { comparePptxFilesDetailed } from '../eval/metrics/pptx/compare.ts';
import { compareTableDetailed } from '../eval/metrics/xlsx/index.ts';
import type { Options } from '../eval/registry.ts';
import { describeValue } from '../shared/describe-value.ts';
import { firstDifference } from './pdf.ts';
import { pptxLocation } from './pptx.ts';
import { describeFailure } from './xlsx.ts';

type Explainer = (result: unknown, expected: unknown, options: Options) => Promise<string | undefined>;

const DETAILED: Record<string, Explainer> = {
  compare_table: async (result, expected, options) => {
    const { failure } = await compareTableDetailed(result, expected, options);
    return failure && describeFailure(failure);
  },
  compare_docx_files: async (result, expected, options) => {
    const { difference } = await compareDocxFilesDetailed(result, expected, options);
    if (!difference) return undefined;
    const paragraph = difference.paragraph === undefined ? '' : ` (paragraph ${difference.paragraph}: received ${describeValue(difference.received)}, expected ${describeValue(difference.expected)})`;
    return `${difference.reason}${paragraph}`;
  },
  compare_pptx_files: async (result, expected, options) => {
    const { difference } = await comparePptxFilesDetailed(result, expected, options);
    if (!difference) return undefined;
    return `${pptxLocation(difference)}${difference.property} differs (received ${describeValue(difference.received)}, expected ${describeValue(difference.expected)})`;
  },
  compare_pdfs: async (result, expected) => {
    if (typeof result !== 'string' || typeof expected !== 'string') return undefined;
    const difference = firstDifference(await pdfText(result), await pdfText(expected));
    return difference ? `first differing line ${difference.line}: received ${describeValue(difference.received)}, expected ${describeValue(difference.expected)}` : undefined;
  },
};

/** One or two lines saying what the metric compared and, where it can tell, what differs. */
export async function explainScore(name: string, result: unknown, expected: unknown, options: Options): Promise<string> {
  const detailed = await DETAILED[name]?.(result, expected, options).catch(() => undefined);
  const given = `result ${describeInput(result)}${expected === undefined ? '' : `, expected ${describeInput(expected)}`}`;
  return detailed ? `${detailed}\n  (${given})` : given;
}

/** A value as a metric received it: a file path with its size (or "missing"), or an excerpt of the value. */
function describeInput(value: unknown): string {
  if (typeof value === 'string' && value.startsWith('/') && !value.includes('\n')) {
    if (!existsSync(value)) return `${value} (missing)`;
    const stat = statSync(value);
    return stat.isFile() ? `${value} (${stat.size} bytes)` : value;
  }
  return describeValue(value);
}
