// PDFs as OSWorld's metrics read them with PyMuPDF: the text (pdf-parse 2, on pdf.js), the embedded raster images
// (pdf.js's decoded image objects) and the page count.
import { readFile } from 'node:fs/promises';
import { PDFParse } from 'pdf-parse';
import * as pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';
import { newImage, type PilImage } from './image/pil-image.ts';
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

/** `len(fitz.open(path))`: the number of pages. */
export async function pdfPageCount(path: string): Promise<number> {
  const parser = new PDFParse({ data: await loadPdf(path) });
  try {
    return (await parser.getInfo()).total;
  } finally {
    await parser.destroy();
  }
}
