// PDF metrics (OSWorld chrome.py compare_pdfs / compare_pdf_images, pdf.py check_pdf_pages), over the PDF reader in
// ../formats/pdf.ts (text, embedded images and page count as PyMuPDF gives them).
import type { Metric, Options } from '../registry.ts';
import { fuzzRatio } from './text-similarity.ts';
import { pdfImages, pdfPageCount, pdfText } from '../formats/pdf.ts';
import type { PilImage } from '../formats/image/pil-image.ts';
import { hashDistance, perceptualHash } from '../formats/image/phash.ts';
import { fileExists } from '../formats/image/structure.ts';
import { filePath } from './arguments.ts';
import { MalformedInputError } from '../../errors.ts';
import { MetricOptionsError } from '../errors.ts';

/**
 * compare_pdfs(a, b): a and b are paths or parallel lists. The score is the mean over pairs of
 * fuzz.ratio(text_a, text_b) / 100 — a float, not thresholded. A pair that fails (missing file, unreadable PDF) adds 0.
 */
async function comparePdfs(result: unknown, expected: unknown): Promise<number> {
  const [left, right] = Array.isArray(expected) ? [asList(result), expected] : [[result], [expected]];
  if (right.length === 0) throw new MalformedInputError('compare_pdfs: expected is an empty list (OSWorld divides by zero)');
  let score = 0;
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    try {
      const a = filePath(left[i], `compare_pdfs result[${i}]`);
      const b = filePath(right[i], `compare_pdfs expected[${i}]`);
      if (!a || !b) continue;
      score += fuzzRatio(await pdfText(a), await pdfText(b)) / 100;
    } catch {
      // OSWorld logs the error and adds nothing for this pair.
    }
  }
  return score / right.length;
}

function asList(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [value];
}

/**
 * compare_pdf_images(a, b): different image counts → 0; no images in either → 1; otherwise the fraction of pairs (in
 * order) whose imagehash.phash distance is ≤ 5. Missing files score 0.
 */
async function comparePdfImages(result: unknown, expected: unknown): Promise<number> {
  const a = filePath(result, 'compare_pdf_images result');
  const b = filePath(expected, 'compare_pdf_images expected');
  if (!a || !b || !fileExists(a) || !fileExists(b)) return 0;
  let first: PilImage[];
  let second: PilImage[];
  try {
    first = await pdfImages(a);
    second = await pdfImages(b);
  } catch {
    return 0;
  }
  if (first.length !== second.length) return 0;
  if (first.length === 0) return 1;
  let close = 0;
  for (let i = 0; i < first.length; i++) {
    if (hashDistance(perceptualHash(first[i]), perceptualHash(second[i])) <= 5) close++;
  }
  return close / first.length;
}

const RELATIONS: Record<string, (a: number, b: number) => boolean> = {
  eq: (a, b) => a === b,
  ne: (a, b) => a !== b,
  lt: (a, b) => a < b,
  le: (a, b) => a <= b,
  gt: (a, b) => a > b,
  ge: (a, b) => a >= b,
};

/** check_pdf_pages(pdf, {relation, ref_value}): `operator.<relation>(page_count, ref_value)`. */
async function checkPdfPages(result: unknown, expected: unknown): Promise<number> {
  const path = filePath(result, 'check_pdf_pages result');
  if (!path) return 0;
  const rules = (expected ?? {}) as Options;
  const relation = RELATIONS[String(rules.relation)];
  if (!relation) throw new MetricOptionsError(`check_pdf_pages: relation must be one of ${Object.keys(RELATIONS).join(', ')}, got ${JSON.stringify(rules.relation)}`);
  if (typeof rules.ref_value !== 'number') throw new MetricOptionsError(`check_pdf_pages: ref_value must be a number, got ${JSON.stringify(rules.ref_value)}`);
  return relation(await pdfPageCount(path), rules.ref_value) ? 1 : 0;
}

export const pdfMetrics: Record<string, Metric> = {
  compare_pdfs: comparePdfs,
  compare_pdf_images: comparePdfImages,
  check_pdf_pages: checkPdfPages,
};
