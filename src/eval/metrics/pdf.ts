// PDF metrics (OSWorld chrome.py compare_pdfs / compare_pdf_images, pdf.py check_pdf_pages). Text comes from
// pdf-parse 2 (pdf.js) where OSWorld uses PyMuPDF; embedded images come from pdf.js's decoded image objects.
import { readFile } from 'node:fs/promises';
import { PDFParse } from 'pdf-parse';
import * as pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { Metric, Options } from '../registry.ts';
import { fuzzRatio } from './text-similarity.ts';
import { newImage, type PilImage } from '../formats/image/pil-image.ts';
import { hashDistance, perceptualHash } from '../formats/image/phash.ts';
import { fileExists } from '../formats/image/structure.ts';
import { filePath } from './arguments.ts';
import { pythonStrip } from '../../python/str.ts';

async function loadPdf(path: string): Promise<Uint8Array> {
  try {
    return new Uint8Array(await readFile(path));
  } catch (error) {
    throw new Error(`cannot read PDF ${path}: ${(error as Error).message}`);
  }
}

/**
 * The text PyMuPDF's `page.get_text()` gives, concatenated over pages and stripped: each page's lines end with a
 * newline. pdf-parse's default page joiner would add "-- 1 of 1 --" markers, hence pageJoiner ''.
 */
export async function pdfText(path: string): Promise<string> {
  const parser = new PDFParse({ data: await loadPdf(path) });
  try {
    const result = await parser.getText({ pageJoiner: '' });
    return pythonStrip(result.pages.map((page) => `${page.text}\n`).join(''));
  } finally {
    await parser.destroy();
  }
}

/**
 * compare_pdfs(a, b): a and b are paths or parallel lists. The score is the mean over pairs of
 * fuzz.ratio(text_a, text_b) / 100 — a float, not thresholded. A pair that fails (missing file, unreadable PDF) adds 0.
 */
export async function comparePdfs(result: unknown, expected: unknown): Promise<number> {
  const [left, right] = Array.isArray(expected) ? [asList(result), expected] : [[result], [expected]];
  if (right.length === 0) throw new Error('compare_pdfs: expected is an empty list (OSWorld divides by zero)');
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
 * The raster images embedded in a PDF, page by page, each image once per page (PyMuPDF's page.get_images lists
 * distinct image objects), in the order pdf.js paints them. Decoded pixels become RGB/RGBA/L images.
 */
export async function pdfImages(path: string): Promise<PilImage[]> {
  const doc = await pdfjs.getDocument({ data: await loadPdf(path), verbosity: 0, isEvalSupported: false }).promise;
  try {
    const images: PilImage[] = [];
    for (let pageNumber = 1; pageNumber <= doc.numPages; pageNumber++) {
      const page = await doc.getPage(pageNumber);
      const ops = await page.getOperatorList();
      const seen = new Set<string>();
      for (let i = 0; i < ops.fnArray.length; i++) {
        const fn = ops.fnArray[i];
        if (fn !== pdfjs.OPS.paintImageXObject && fn !== pdfjs.OPS.paintInlineImageXObject) continue;
        const arg = ops.argsArray[i][0];
        if (typeof arg === 'string') {
          if (seen.has(arg)) continue;
          seen.add(arg);
          const objects = page.commonObjs.has(arg) ? page.commonObjs : page.objs;
          images.push(toImage(await new Promise<PdfjsImage>((resolve) => objects.get(arg, resolve))));
        } else {
          images.push(toImage(arg as PdfjsImage)); // inline image: the data comes with the operator
        }
      }
      page.cleanup();
    }
    return images;
  } finally {
    await doc.destroy();
  }
}

interface PdfjsImage {
  width: number;
  height: number;
  kind: number;
  data?: Uint8Array | Uint8ClampedArray;
  bitmap?: unknown;
}

function toImage(image: PdfjsImage): PilImage {
  const { width, height, kind, data } = image;
  if (!data) throw new Error(`pdf.js returned image ${width}x${height} without pixel data`);
  if (kind === pdfjs.ImageKind.RGBA_32BPP) return newImage(width, height, 'RGBA', new Uint8Array(data));
  if (kind === pdfjs.ImageKind.RGB_24BPP) return newImage(width, height, 'RGB', new Uint8Array(data));
  if (kind === pdfjs.ImageKind.GRAYSCALE_1BPP) {
    // 1 bit per pixel, rows padded to whole bytes, 1 = white.
    const grey = newImage(width, height, 'L');
    const rowBytes = (width + 7) >> 3;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const bit = (data[y * rowBytes + (x >> 3)] >> (7 - (x & 7))) & 1;
        grey.data[y * width + x] = bit ? 255 : 0;
      }
    }
    return grey;
  }
  throw new Error(`unsupported pdf.js image kind ${kind}`);
}

/**
 * compare_pdf_images(a, b): different image counts → 0; no images in either → 1; otherwise the fraction of pairs (in
 * order) whose imagehash.phash distance is ≤ 5. Missing files score 0.
 */
export async function comparePdfImages(result: unknown, expected: unknown): Promise<number> {
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
export async function checkPdfPages(result: unknown, expected: unknown): Promise<number> {
  const path = filePath(result, 'check_pdf_pages result');
  if (!path) return 0;
  const rules = (expected ?? {}) as Options;
  const relation = RELATIONS[String(rules.relation)];
  if (!relation) throw new Error(`check_pdf_pages: relation must be one of ${Object.keys(RELATIONS).join(', ')}, got ${JSON.stringify(rules.relation)}`);
  if (typeof rules.ref_value !== 'number') throw new Error(`check_pdf_pages: ref_value must be a number, got ${JSON.stringify(rules.ref_value)}`);
  const parser = new PDFParse({ data: await loadPdf(path) });
  try {
    const info = await parser.getInfo();
    return relation(info.total, rules.ref_value) ? 1 : 0;
  } finally {
    await parser.destroy();
  }
}

export const pdfMetrics: Record<string, Metric> = {
  compare_pdfs: comparePdfs,
  compare_pdf_images: comparePdfImages,
  check_pdf_pages: checkPdfPages,
};
