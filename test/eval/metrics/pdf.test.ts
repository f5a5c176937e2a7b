// PDF metrics on PDFs exported by real LibreOffice (scripts/fixtures/pdf.ts). Fuzzy ratios are checked against
// values computed from the definition (2·LCS/(len1+len2)) in python3 (scripts/fixtures/pdf-expected.py).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { registerBuiltins } from '../../../src/eval/builtins.ts';
import { openImage } from '../../../src/eval/formats/image/pil-image.ts';
import { hashDistance, perceptualHash } from '../../../src/eval/formats/image/phash.ts';
import { pdfImages, pdfText } from '../../../src/eval/formats/pdf.ts';
import { pdfMetrics } from '../../../src/eval/metrics/pdf.ts';
import { metrics } from '../../../src/eval/registry.ts';

const root = join(import.meta.dirname, '..', '..', '..', 'fixtures');
const pdf = (name: string) => join(root, 'pdf', `${name}.pdf`);
const expected = JSON.parse(readFileSync(join(root, 'pdf', 'expected.json'), 'utf8'));
const m = pdfMetrics;

describe('pdf text (PyMuPDF get_text semantics)', () => {
  it('extracts the paragraphs one per line, pages concatenated, stripped, without page markers', async () => {
    for (const [name, text] of Object.entries(expected.texts)) expect(await pdfText(pdf(name)), name).toBe(text);
  });

  it('includes the text of annotations and filled-in form fields, as get_text does (scripts/fixtures/pdf-annotated.py)', async () => {
    const annotated = JSON.parse(readFileSync(join(root, 'pdf', 'annotated.json'), 'utf8')) as { text: string };
    expect(annotated.text).toContain('Widget value'); // what PyMuPDF read
    expect(await pdfText(pdf('annotated'))).toBe(annotated.text.trim()); // compare_pdfs strips the joined text
  });
});

describe('compare_pdfs', () => {
  it('returns the fuzzy ratio as a float', async () => {
    expect(await m.compare_pdfs(pdf('text-a'), pdf('text-b'), {})).toBeCloseTo(expected.ratio_a_b, 12);
    expect(await m.compare_pdfs(pdf('text-a'), pdf('text-a-copy'), {})).toBe(1);
  });

  it('averages over parallel lists', async () => {
    const score = await m.compare_pdfs([pdf('text-a'), pdf('text-a-copy')], [pdf('text-b'), pdf('text-a')], {});
    expect(score).toBeCloseTo(expected.mean_list, 12);
  });

  it('counts a missing or unreadable pair as 0 in the mean', async () => {
    expect(await m.compare_pdfs(null, pdf('text-a'), {})).toBe(0);
    expect(await m.compare_pdfs([pdf('text-a'), join(root, 'images', 'scene.png')], [pdf('text-a'), pdf('text-a')], {})).toBe(0.5);
  });
});

describe('compare_pdf_images', () => {
  it('extracts embedded images in order', async () => {
    const images = await pdfImages(pdf('image-two'));
    expect(images.map((i) => [i.width, i.height])).toEqual([
      [64, 48],
      [100, 40],
    ]);
    expect(await pdfImages(pdf('text-a'))).toEqual([]);
  });

  it('phash distance of an image with itself is 0, with an unrelated image large', async () => {
    const scene = perceptualHash(await openImage(join(root, 'images', 'scene.png')));
    expect(hashDistance(scene, scene)).toBe(0);
    const other = perceptualHash(await openImage(join(root, 'images', 'scene-dark-shuffled.png')));
    expect(hashDistance(scene, other)).toBeGreaterThan(5);
  });

  it('scores the fraction of image pairs within phash distance 5', async () => {
    expect(await m.compare_pdf_images(pdf('image-scene'), pdf('image-scene-copy'), {})).toBe(1);
    expect(await m.compare_pdf_images(pdf('image-scene'), pdf('image-other'), {})).toBe(0);
  });

  it('gives 0 for different image counts, 1 when neither has images, 0 for a missing file', async () => {
    expect(await m.compare_pdf_images(pdf('image-scene'), pdf('image-two'), {})).toBe(0);
    expect(await m.compare_pdf_images(pdf('text-a'), pdf('text-b'), {})).toBe(1);
    expect(await m.compare_pdf_images(null, pdf('text-b'), {})).toBe(0);
  });
});

describe('check_pdf_pages', () => {
  it('applies the relation to the page count', async () => {
    expect(await m.check_pdf_pages(pdf('two-pages'), { relation: 'eq', ref_value: 2 }, {})).toBe(1);
    expect(await m.check_pdf_pages(pdf('text-a'), { relation: 'eq', ref_value: 2 }, {})).toBe(0);
    expect(await m.check_pdf_pages(pdf('two-pages'), { relation: 'ge', ref_value: 1 }, {})).toBe(1);
    expect(await m.check_pdf_pages(null, { relation: 'eq', ref_value: 1 }, {})).toBe(0);
  });

  it('rejects an unknown relation with a clear error', async () => {
    await expect(m.check_pdf_pages(pdf('text-a'), { relation: 'equals', ref_value: 1 }, {})).rejects.toThrow(/relation must be one of/);
  });
});

it('registers the pdf family under OSWorld names', () => {
  registerBuiltins();
  for (const name of ['compare_pdfs', 'compare_pdf_images', 'check_pdf_pages']) expect(metrics.get(name)).toBe(m[name]);
});
