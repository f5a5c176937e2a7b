// toMatchPdf: OSWorld's compare_pdfs (fuzzy ratio of the two PDFs' texts) as an assertion, with the first differing
// line in the failure message.
import { pdfText } from '../eval/formats/pdf.ts';
import { fuzzRatio } from '../eval/metrics/text-similarity.ts';
import { defineMatcher } from './framework.ts';

export interface PdfMatchOptions {
  /** Minimum text similarity in [0, 1] (compare_pdfs' score); default 1, identical text. */
  threshold?: number;
}

/** The first line (1-based) where two texts differ, with both versions. */
export function firstDifference(received: string, expected: string): { line: number; received: string; expected: string } | null {
  const a = received.split('\n');
  const b = expected.split('\n');
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i]) return { line: i + 1, received: a[i] ?? '<end of text>', expected: b[i] ?? '<end of text>' };
  }
  return null;
}

export const toMatchPdf = defineMatcher('toMatchPdf', async (received: unknown, expected: string, options: PdfMatchOptions = {}) => {
  const threshold = options.threshold ?? 1;
  const [got, want] = [await pdfText(received as string), await pdfText(expected)];
  const ratio = fuzzRatio(got, want) / 100;
  const difference = firstDifference(got, want);
  const where = difference
    ? `; first differing line ${difference.line}:\n  received: ${JSON.stringify(difference.received)}\n  expected: ${JSON.stringify(difference.expected)}`
    : '; the texts are identical';
  return {
    pass: ratio >= threshold,
    message: `PDF text similarity ${ratio.toFixed(4)} ${ratio >= threshold ? 'meets' : 'is below'} the threshold ${threshold}${where}`,
    actual: got,
    expected: want,
  };
}, { golden: true });
