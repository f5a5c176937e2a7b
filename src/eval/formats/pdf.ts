// PDFs as OSWorld's metrics read them with PyMuPDF, through MuPDF itself (the `mupdf` WASM build PyMuPDF wraps): the
// text of page.get_text(), the raster images of page.get_images() and the page count. The WASM module is loaded on
// first use, so runs without PDF metrics never pay for it.
import { readFileSync } from 'node:fs';
import { newImage, type PilImage } from './image/pil-image.ts';
import { pythonStrip } from '../../python/str.ts';
import { MalformedInputError } from '../../errors.ts';

type MuPdf = typeof import('mupdf');
type PdfDocument = import('mupdf').PDFDocument;
let loading: Promise<MuPdf> | undefined;

/** MuPDF with ICC colour management off, PyMuPDF's default (Tools.set_icc): also spares a colour context per page. */
function mupdf(): Promise<MuPdf> {
  loading ??= import('mupdf').then((module) => {
    module.disableICC();
    return module;
  });
  return loading;
}

/**
 * Opens the file (or the bytes: a PDF inside an archive) as a PDF, hands it to `use` with MuPDF, then closes it and
 * empties MuPDF's resource store. The store keeps what MuPDF decoded (images, fonts) after their document is gone —
 * never reaped in this build — so without emptying it every call left the store larger and the next one slower (an
 * image PDF: 0.12 ms per call at first, 0.58 ms after 8,000 calls) while memory grew. Nothing outlives a call here, so
 * nothing in the store is worth keeping.
 */
async function withPdf<T>(source: string | Uint8Array, use: (doc: PdfDocument, engine: MuPdf) => T): Promise<T> {
  const path = typeof source === 'string' ? source : 'in memory';
  let bytes: Uint8Array;
  try {
    bytes = typeof source === 'string' ? readFileSync(source) : source; // a Buffer is a Uint8Array: no copy needed
  } catch (error) {
    throw new MalformedInputError(`cannot read PDF ${path}: ${(error as Error).message}`);
  }
  const engine = await mupdf();
  let doc: PdfDocument;
  try {
    doc = new engine.PDFDocument(bytes);
  } catch (error) {
    throw new MalformedInputError(`cannot open PDF ${path}: ${(error as Error).message}`);
  }
  try {
    return use(doc, engine);
  } finally {
    doc.destroy();
    engine.emptyStore();
  }
}

/**
 * PyMuPDF's `page.get_text()` (its default flags: ligatures and whitespace preserved, text clipped to the page),
 * concatenated over pages and stripped. PyMuPDF ends every line with a newline and adds nothing between blocks;
 * MuPDF's asText() adds one more newline after each block. A line always holds at least one character, so a doubled
 * newline is exactly a block end. (asText instead of walk(): walk builds JS objects for every character.)
 */
export function pdfText(source: string | Uint8Array): Promise<string> {
  return withPdf(source, (doc) => {
    let text = '';
    const pages = doc.countPages();
    for (let index = 0; index < pages; index++) {
      const page = doc.loadPage(index);
      const structured = wholePageText(page);
      text += structured.asText().replaceAll('\n\n', '\n');
      structured.destroy();
      page.destroy();
    }
    return pythonStrip(text);
  });
}

const TEXT_OPTIONS = 'preserve-ligatures,preserve-whitespace,clip';

/**
 * The structured text of the whole page as PyMuPDF runs it (fz_run_page: the contents, then the appearances of the
 * annotations and form widgets, so a filled-in form field's value is text). MuPDF.js's page.toStructuredText runs the
 * contents only; a page with annotations or widgets goes through a display list of the whole page instead.
 */
function wholePageText(page: import('mupdf').PDFPage): import('mupdf').StructuredText {
  const annotations = page.getAnnotations();
  const widgets = page.getWidgets();
  if (annotations.length === 0 && widgets.length === 0) return page.toStructuredText(TEXT_OPTIONS);
  const list = page.toDisplayList(true);
  try {
    return list.toStructuredText(TEXT_OPTIONS);
  } finally {
    list.destroy();
    for (const annotation of [...annotations, ...widgets]) annotation.destroy(); // before the document they point into
  }
}

/**
 * The raster images of `page.get_images()` page by page, each image object once per page, in the order of the page's
 * XObject resources (Form XObjects searched recursively, inline images not listed, as PyMuPDF does). Decoded to
 * L or RGB pixels without their soft mask, as `extract_image` hands over the base image.
 */
export function pdfImages(path: string): Promise<PilImage[]> {
  return withPdf(path, (doc, { ColorSpace }) => {
    const images: PilImage[] = [];
    for (let index = 0; index < doc.countPages(); index++) {
      const seen = new Set<number>();
      const scan = (resources: import('mupdf').PDFObject, depth: number) => {
        if (depth > 10 || resources.isNull()) return; // forms nesting themselves
        resources.get('XObject').forEach((ref) => {
          const object = ref.resolve();
          const subtype = object.get('Subtype');
          if (!subtype.isName()) return;
          if (subtype.asName() === 'Form') {
            scan(object.get('Resources'), depth + 1);
            return;
          }
          if (subtype.asName() !== 'Image' || !ref.isIndirect() || seen.has(ref.asIndirect())) return;
          seen.add(ref.asIndirect());
          const image = doc.loadImage(ref);
          const pixmap = image.toPixmap();
          images.push(toImage(pixmap, ColorSpace.DeviceRGB));
          pixmap.destroy();
          image.destroy();
        });
      };
      scan(doc.findPage(index).getInheritable('Resources'), 0); // the page object only: no need to load the page
    }
    return images;
  });
}

function toImage(pixmap: import('mupdf').Pixmap, rgb: import('mupdf').ColorSpace): PilImage {
  const colorspace = pixmap.getColorSpace();
  const grey = colorspace?.isGray() && pixmap.getAlpha() === 0;
  const source = grey || (colorspace?.isRGB() && pixmap.getAlpha() === 0) ? pixmap : pixmap.convertToColorSpace(rgb, false);
  const width = source.getWidth();
  const height = source.getHeight();
  const bands = grey ? 1 : 3;
  const stride = source.getStride();
  const pixels = source.getPixels();
  const image = newImage(width, height, grey ? 'L' : 'RGB');
  for (let y = 0; y < height; y++) image.data.set(pixels.subarray(y * stride, y * stride + width * bands), y * width * bands);
  if (source !== pixmap) source.destroy();
  return image;
}

/** `len(fitz.open(path))`: the number of pages. */
export function pdfPageCount(path: string): Promise<number> {
  return withPdf(path, (doc) => doc.countPages());
}
