// The PDFs are LibreOffice exports of three lines of text; "report-changed" says 15 where "report" says 12.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, test } from 'vitest';
import '../../src/matchers/index.ts';
import { firstDifference } from '../../src/matchers/pdf.ts';
import { defineMetric } from '../../src/eval/registry.ts';

const fixtures = join(import.meta.dirname, 'fixtures');
const pdf = (name: string) => join(fixtures, `${name}.pdf`);

describe('toMatchPdf', () => {
  test('passes for a PDF with the same text', async () => {
    await expect(pdf('report-copy')).toMatchPdf(pdf('report'));
  });

  test('fails with the similarity and the first differing line', async () => {
    // One digit differs in 63 characters: fuzz.ratio = 2·62 / (63 + 63) = 0.9841.
    await expect(expect(pdf('report-changed')).toMatchPdf(pdf('report'))).rejects.toThrow(
      'PDF text similarity 0.9841 is below the threshold 1; first differing line 2:\n' +
        '  received: "Revenue grew by 15 percent."\n  expected: "Revenue grew by 12 percent."',
    );
  });

  test('a threshold accepts near matches; .not inverts', async () => {
    await expect(pdf('report-changed')).toMatchPdf(pdf('report'), { threshold: 0.98 });
    await expect(pdf('report-changed')).not.toMatchPdf(pdf('report'));
    await expect(expect(pdf('report-copy')).not.toMatchPdf(pdf('report'))).rejects.toThrow('expected not to match, but it did');
  });

  test('a missing received file is a clear error', async () => {
    await expect(expect(join(fixtures, 'nope.pdf')).toMatchPdf(pdf('report'))).rejects.toThrow('nope.pdf');
  });

  test('the received PDF may be a Buffer of its bytes', async () => {
    await expect(readFileSync(pdf('report-copy'))).toMatchPdf(pdf('report'));
    await expect(expect(readFileSync(pdf('report-changed'))).toMatchPdf(pdf('report'))).rejects.toThrow('first differing line 2');
  });

  test('firstDifference finds extra and missing lines', () => {
    expect(firstDifference('a\nb', 'a\nb\nc')).toEqual({ line: 3, received: '<end of text>', expected: 'c' });
    expect(firstDifference('same', 'same')).toBeNull();
  });
});

describe('toPassMetric', () => {
  beforeAll(() => defineMetric('test_starts_with', (result, expected) => (String(result).startsWith(String(expected)) ? 1 : 0)));

  test('a user-defined metric', async () => {
    await expect('deskbench').toPassMetric('test_starts_with', 'desk');
    await expect(expect('deskbench').toPassMetric('test_starts_with', 'bench')).rejects.toThrow('metric test_starts_with scored 0 (1 passes)\nresult "deskbench", expected "bench"');
  });

  test('a built-in float metric passes only at 1', async () => {
    await expect(pdf('report-copy')).toPassMetric('compare_pdfs', pdf('report'));
    // A 0 (or any score below 1) says what differs where the metric can tell, and what it was given.
    await expect(expect(pdf('report-changed')).toPassMetric('compare_pdfs', pdf('report'))).rejects.toThrow(
      /scored 0\.984\d*.*\nfirst differing line 2: received "Revenue grew by 15 percent.", expected "Revenue grew by 12 percent."\n {2}\(result \/.*report-changed\.pdf \(\d+ bytes\), expected .*report\.pdf \(\d+ bytes\)\)/,
    );
    await expect(expect('/nowhere/out.pdf').toPassMetric('compare_pdfs', pdf('report'))).rejects.toThrow(/result \/nowhere\/out\.pdf \(missing\)/);
  });

  test('an unknown metric name suggests close ones', async () => {
    await expect(expect('x').toPassMetric('compare_pdf', 'y')).rejects.toThrow('did you mean "compare_pdfs"');
  });
});

describe('toMatchImage', () => {
  const dir = mkdtempSync(join(tmpdir(), 'deskbench-images-'));
  const scene = join(dir, 'scene.png');
  const copy = join(dir, 'copy.png');
  const patched = join(dir, 'patched.png');

  beforeAll(async () => {
    const width = 64;
    const height = 48;
    const pixels = Buffer.alloc(width * height * 3);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) pixels.set([x * 4, y * 5, (x * y) % 256], (y * width + x) * 3);
    }
    const image = () => sharp(pixels, { raw: { width, height, channels: 3 } });
    await image().png().toFile(scene);
    await image().png().toFile(copy);
    const patch = await sharp({ create: { width: 24, height: 20, channels: 3, background: { r: 255, g: 255, b: 255 } } }).png().toBuffer();
    await image().composite([{ input: patch, left: 20, top: 14 }]).png().toFile(patched);
  });

  test('an identical image passes (SSIM 1)', async () => {
    await expect(copy).toMatchImage(scene);
  });

  test('a changed image fails with its SSIM and attaches expected, received and difference images', async ({ task }) => {
    const before = task.annotations.length;
    await expect(expect(patched).toMatchImage(scene)).rejects.toThrow(/SSIM 0\.\d{4} is below the threshold 0\.99/);
    const added = task.annotations.slice(before);
    expect(added.map((a) => a.message)).toEqual([
      'toMatchImage: expected image',
      'toMatchImage: received image (resized to the expected size)',
      'toMatchImage: difference (brighter = more different)',
    ]);
    expect(added.every((a) => a.attachment?.contentType === 'image/png')).toBe(true);
  });

  test('a Buffer of PNG bytes is a received image too', async () => {
    await expect(readFileSync(copy)).toMatchImage(scene);
    await expect(expect(readFileSync(patched)).toMatchImage(scene)).rejects.toThrow(/SSIM 0\.\d{4} is below/);
    await expect(expect(42).toMatchImage(scene)).rejects.toThrow('toMatchImage: the received value must be a file path or a Buffer');
  });

  test('another image metric can give the score', async () => {
    await expect(copy).toMatchImage(scene, { metric: 'check_structure_sim' });
    await expect(patched).toMatchImage(scene, { threshold: 0.2 });
  });
});
