// Tables and images of Writer documents (OSWorld docs.py compare_docx_tables, compare_docx_images).
import sharp from 'sharp';
import { filePath } from '../arguments.ts';
import { pythonStrip } from '../../../python/str.ts';
import { bodyTables, cellText, documentImages, openDocx, readTable } from '../../formats/docx/document.ts';
import type { Docx } from '../../formats/docx/document.ts';
import { MalformedInputError } from '../../../errors.ts';

interface StructureComparison {
  score: number;
  difference?: string;
}

async function openBoth(result: unknown, expected: unknown, metric: string): Promise<[Docx, Docx] | string> {
  const file1 = filePath(result, `${metric} result`);
  const file2 = filePath(expected, `${metric} expected`);
  if (!file1 || !file2) return 'a file is missing';
  try {
    return [await openDocx(file1), await openDocx(file2)];
  } catch (error) {
    return `cannot read the documents: ${(error as Error).message}`;
  }
}

/** compare_docx_tables(a, b): same number of body tables, same rows × grid columns, equal stripped cell texts. */
async function compareDocxTablesDetailed(result: unknown, expected: unknown): Promise<StructureComparison> {
  const docs = await openBoth(result, expected, 'compare_docx_tables');
  if (typeof docs === 'string') return { score: 0, difference: docs };
  const [t1, t2] = docs.map(bodyTables);
  if (t1.length !== t2.length) return { score: 0, difference: `table counts differ: ${t1.length} vs ${t2.length}` };
  for (let t = 0; t < t1.length; t++) {
    const [a, b] = [readTable(t1[t]), readTable(t2[t])];
    if (a.rowCount !== b.rowCount || a.columnCount !== b.columnCount) {
      return { score: 0, difference: `table ${t + 1}: ${a.rowCount}×${a.columnCount} vs ${b.rowCount}×${b.columnCount}` };
    }
    for (let r = 0; r < a.rowCount; r++) {
      for (let c = 0; c < a.columnCount; c++) {
        const [x, y] = [pythonStrip(cellText(a.cell(r, c))), pythonStrip(cellText(b.cell(r, c)))];
        if (x !== y) {
          return { score: 0, difference: `table ${t + 1}, row ${r + 1}, column ${c + 1}: ${JSON.stringify(x)} vs ${JSON.stringify(y)}` };
        }
      }
    }
  }
  return { score: 1 };
}

export async function compareDocxTables(result: unknown, expected: unknown): Promise<number> {
  return (await compareDocxTablesDetailed(result, expected)).score;
}

/**
 * Decoded pixels, as PIL's `Image.open(...).tobytes()` is compared in OSWorld. sharp decodes to 8-bit channels; PIL
 * keeps palette images as indices, so two palette PNGs with different palettes but equal colours compare equal here
 * and differ in OSWorld (and vice versa for equal indices under different palettes). PIL cannot open SVG, EMF or WMF
 * data, which makes OSWorld's metric fail: we throw for those too.
 */
async function decodedPixels(name: string, data: Buffer): Promise<{ width: number; height: number; channels: number; pixels: Buffer }> {
  const head = data.subarray(0, 256).toString('latin1');
  if (/^\s*(<\?xml|<svg)/.test(head) || /\.(svg|emf|wmf)$/i.test(name)) {
    throw new MalformedInputError(`image ${name} cannot be decoded by PIL (vector format)`);
  }
  const { data: pixels, info } = await sharp(data).raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, channels: info.channels, pixels };
}

/** compare_docx_images(a, b): the main document's image parts, in relationship order, decode to identical pixels. */
async function compareDocxImagesDetailed(result: unknown, expected: unknown): Promise<StructureComparison> {
  const docs = await openBoth(result, expected, 'compare_docx_images');
  if (typeof docs === 'string') return { score: 0, difference: docs };
  const [i1, i2] = [await documentImages(docs[0]), await documentImages(docs[1])];
  if (i1.length !== i2.length) return { score: 0, difference: `image counts differ: ${i1.length} vs ${i2.length}` };
  for (let i = 0; i < i1.length; i++) {
    const [a, b] = [await decodedPixels(i1[i].name, i1[i].data), await decodedPixels(i2[i].name, i2[i].data)];
    if (a.width !== b.width || a.height !== b.height || a.channels !== b.channels || !a.pixels.equals(b.pixels)) {
      return { score: 0, difference: `image ${i + 1} (${i1[i].name} vs ${i2[i].name}): decoded pixels differ` };
    }
  }
  return { score: 1 };
}

export async function compareDocxImages(result: unknown, expected: unknown): Promise<number> {
  return (await compareDocxImagesDetailed(result, expected)).score;
}
