// Pillow's mode conversions and small image operations, with Pillow's integer arithmetic so results match bit for bit.
import { bandCount, hasAlphaBand, newImage, type Mode, type PilImage } from './pil-image.ts';
import { InternalError } from '../../../errors.ts';

/**
 * ITU-R 601-2 luma as Pillow's `convert('L')` computes it: `(R·19595 + G·38470 + B·7471 + 0x8000) >> 16`
 * (the weights are 0.299/0.587/0.114 in 16-bit fixed point).
 */
export function luma(r: number, g: number, b: number): number {
  return (r * 19595 + g * 38470 + b * 7471 + 0x8000) >>> 16;
}

/** `image.convert(mode)` for the modes OSWorld's metrics use. */
export function convert(image: PilImage, mode: Mode | 'HSV'): PilImage {
  if (mode === 'HSV') throw new InternalError('use toHsvBands() for HSV');
  if (image.mode === mode) return image;
  const { width, height } = image;
  const pixels = width * height;
  const src = image.data;
  const from = bandCount(image.mode);
  const out = newImage(width, height, mode);
  const dst = out.data;
  const to = bandCount(mode);
  const fromGrey = image.mode === 'L' || image.mode === '1' || image.mode === 'LA';
  if (mode === '1' || mode === 'P') {
    throw new InternalError(`converting ${image.mode} to ${mode} (dithering/quantising) is not supported`);
  }
  for (let i = 0; i < pixels; i++) {
    const s = i * from;
    const d = i * to;
    const r = src[s];
    const g = fromGrey ? r : src[s + 1];
    const b = fromGrey ? r : src[s + 2];
    const alpha = hasAlphaBand(image.mode) ? src[s + from - 1] : (image.transparency?.[i] ?? 255);
    if (mode === 'L' || mode === 'LA') {
      dst[d] = fromGrey ? r : luma(r, g, b);
      if (mode === 'LA') dst[d + 1] = alpha;
    } else {
      dst[d] = r;
      dst[d + 1] = g;
      dst[d + 2] = b;
      if (mode === 'RGBA') dst[d + 3] = alpha;
    }
  }
  return out;
}

/**
 * `image.convert('HSV')` split into its three bands (Pillow's rgb2hsv, which follows colorsys with C float/double
 * mixing: s and the hue ratios are single precision, the hue wrap is done in double).
 */
export function toHsvBands(image: PilImage): { h: PilImage; s: PilImage; v: PilImage } {
  const rgb = convert(image, 'RGB');
  const { width, height } = rgb;
  const h = newImage(width, height, 'L');
  const s = newImage(width, height, 'L');
  const v = newImage(width, height, 'L');
  const f = Math.fround;
  for (let i = 0; i < width * height; i++) {
    const r = rgb.data[i * 3];
    const g = rgb.data[i * 3 + 1];
    const b = rgb.data[i * 3 + 2];
    const maxc = Math.max(r, g, b);
    const minc = Math.min(r, g, b);
    v.data[i] = maxc;
    if (maxc === minc) continue; // hue and saturation 0
    const cr = f(maxc - minc);
    const sat = f(cr / maxc);
    const rc = f((maxc - r) / cr);
    const gc = f((maxc - g) / cr);
    const bc = f((maxc - b) / cr);
    let hue: number;
    if (r === maxc) hue = f(bc - gc);
    else if (g === maxc) hue = f(2.0 + rc - bc);
    else hue = f(4.0 + gc - rc);
    hue = f(pythonFmod(hue / 6.0 + 1.0, 1.0));
    h.data[i] = clip8(Math.trunc(hue * 255.0));
    s.data[i] = clip8(Math.trunc(sat * 255.0));
  }
  return { h, s, v };
}

function pythonFmod(a: number, b: number): number {
  return a % b; // C fmod keeps the sign of a, like JS %
}

function clip8(value: number): number {
  return value < 0 ? 0 : Math.min(value, 255);
}

/** One band of the image as an L image (`image.split()[band]`). */
export function band(image: PilImage, index: number): PilImage {
  const bands = bandCount(image.mode);
  if (index < 0) index += bands;
  const out = newImage(image.width, image.height, 'L');
  for (let i = 0; i < image.width * image.height; i++) out.data[i] = image.data[i * bands + index];
  return out;
}

/** `getbbox()` of a single-band image: the box (x0, y0, x1, y1) of non-zero pixels, or null when all are zero. */
export function bandBoundingBox(image: PilImage): [number, number, number, number] | null {
  if (bandCount(image.mode) !== 1) throw new InternalError(`bandBoundingBox needs a single-band image, got ${image.mode}`);
  let x0 = image.width;
  let y0 = image.height;
  let x1 = 0;
  let y1 = 0;
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      if (image.data[y * image.width + x] === 0) continue;
      if (x < x0) x0 = x;
      if (y < y0) y0 = y;
      if (x + 1 > x1) x1 = x + 1;
      if (y + 1 > y1) y1 = y + 1;
    }
  }
  return x1 === 0 ? null : [x0, y0, x1, y1];
}

/** `image.crop((x0, y0, x1, y1))` for a box inside the image. */
export function crop(image: PilImage, [x0, y0, x1, y1]: [number, number, number, number]): PilImage {
  const bands = bandCount(image.mode);
  const out = newImage(x1 - x0, y1 - y0, image.mode);
  for (let y = y0; y < y1; y++) {
    const row = image.data.subarray((y * image.width + x0) * bands, (y * image.width + x1) * bands);
    out.data.set(row, (y - y0) * out.width * bands);
  }
  if (image.transparency) {
    const t = new Uint8Array(out.width * out.height);
    for (let y = y0; y < y1; y++) t.set(image.transparency.subarray(y * image.width + x0, y * image.width + x1), (y - y0) * out.width);
    out.transparency = t;
  }
  return out;
}

/** `image.transpose(Image.FLIP_LEFT_RIGHT)`. */
export function flipLeftRight(image: PilImage): PilImage {
  const bands = bandCount(image.mode);
  const out = newImage(image.width, image.height, image.mode);
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      const s = (y * image.width + x) * bands;
      const d = (y * image.width + (image.width - 1 - x)) * bands;
      for (let c = 0; c < bands; c++) out.data[d + c] = image.data[s + c];
    }
  }
  return out;
}

/**
 * `image.point(fn)` with a Python callable: Pillow builds a 256-entry table and applies it to every band, alpha
 * included. (On a real P image Pillow would map palette indices; ours are expanded colours, see pil-image.ts.)
 */
export function point(image: PilImage, fn: (value: number) => number): PilImage {
  const table = new Uint8Array(256);
  for (let i = 0; i < 256; i++) table[i] = fn(i);
  const out = newImage(image.width, image.height, image.mode);
  for (let i = 0; i < image.data.length; i++) out.data[i] = table[image.data[i]];
  if (image.transparency) out.transparency = image.transparency;
  return out;
}

/** `ImageStat.Stat(image).mean[0]` of a single-band image: the exact mean of its values. */
export function meanOfBand(image: PilImage): number {
  let sum = 0;
  for (const value of image.data) sum += value;
  return sum / image.data.length;
}

/** `np.asarray(image)` shape check for functions that index `[row, col][:3]`: the samples per pixel Pillow exposes. */
export function numpyBands(image: PilImage): number {
  return image.mode === 'P' ? 1 : bandCount(image.mode);
}
