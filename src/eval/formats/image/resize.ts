// Pillow's `Image.resize` reimplemented from its C source (libImaging/Resample.c), so that resized pixels match
// Pillow exactly rather than approximately (sharp's kernels differ in support and rounding): separable convolution,
// horizontal pass first, coefficients normalised per output pixel and quantised to 22-bit fixed point, each pass
// rounded and clipped to 8 bits. RGBA/LA are premultiplied around the resize, as Pillow does.
import { bandCount, newImage, type PilImage } from './pil-image.ts';

export type Resample = 'nearest' | 'bicubic' | 'lanczos';

interface Filter {
  support: number;
  weight(x: number): number;
}

const BICUBIC: Filter = {
  support: 2,
  weight(x) {
    const a = -0.5;
    if (x < 0) x = -x;
    if (x < 1) return ((a + 2) * x - (a + 3)) * x * x + 1;
    if (x < 2) return (((x - 5) * x + 8) * x - 4) * a;
    return 0;
  },
};

function sinc(x: number): number {
  if (x === 0) return 1;
  x *= Math.PI;
  return Math.sin(x) / x;
}

const LANCZOS: Filter = {
  support: 3,
  weight(x) {
    return -3 <= x && x < 3 ? sinc(x) * sinc(x / 3) : 0;
  },
};

const PRECISION_BITS = 32 - 8 - 2;
const ONE = 2 ** PRECISION_BITS;
const HALF = ONE / 2;

/**
 * `image.resize((width, height), resample)`. Pillow's default resample for `resize` is BICUBIC; P and 1 images are
 * always resized with NEAREST.
 */
export function resize(image: PilImage, width: number, height: number, resample: Resample = 'bicubic'): PilImage {
  if (width === image.width && height === image.height) return { ...image, data: image.data.slice() };
  if (image.mode === 'P' || image.mode === '1') resample = 'nearest';
  if (resample === 'nearest') return resizeNearest(image, width, height);
  const filter = resample === 'lanczos' ? LANCZOS : BICUBIC;
  const premultiplied = image.mode === 'RGBA' || image.mode === 'LA';
  const source = premultiplied ? premultiply(image) : image;
  const bands = bandCount(image.mode);
  let current = source.data;
  let currentWidth = image.width;
  let currentHeight = image.height;
  if (width !== image.width) {
    current = resampleAxis(current, currentWidth, currentHeight, bands, width, filter, true);
    currentWidth = width;
  }
  if (height !== image.height) {
    current = resampleAxis(current, currentWidth, currentHeight, bands, height, filter, false);
    currentHeight = height;
  }
  const out = newImage(width, height, image.mode, current);
  return premultiplied ? unpremultiply(out) : out;
}

/** Coefficients for one axis (Pillow's precompute_coeffs + normalize_coeffs_8bpc). */
function coefficients(inSize: number, outSize: number, filter: Filter) {
  const scale = inSize / outSize;
  const filterScale = Math.max(scale, 1);
  const support = filter.support * filterScale;
  const kernelSize = Math.ceil(support) * 2 + 1;
  const bounds = new Int32Array(outSize * 2);
  const weights = new Int32Array(outSize * kernelSize);
  const row = new Float64Array(kernelSize);
  for (let xx = 0; xx < outSize; xx++) {
    const center = (xx + 0.5) * scale;
    const ss = 1 / filterScale;
    const xmin = Math.max(0, Math.trunc(center - support + 0.5));
    const xmax = Math.min(inSize, Math.trunc(center + support + 0.5)) - xmin;
    let total = 0;
    for (let x = 0; x < xmax; x++) {
      row[x] = filter.weight((x + xmin - center + 0.5) * ss);
      total += row[x];
    }
    for (let x = 0; x < xmax; x++) {
      const w = total !== 0 ? row[x] / total : row[x];
      weights[xx * kernelSize + x] = w < 0 ? Math.trunc(-0.5 + w * (1 << PRECISION_BITS)) : Math.trunc(0.5 + w * (1 << PRECISION_BITS));
    }
    bounds[xx * 2] = xmin;
    bounds[xx * 2 + 1] = xmax;
  }
  return { bounds, weights, kernelSize };
}

function resampleAxis(
  src: Uint8Array,
  width: number,
  height: number,
  bands: number,
  outSize: number,
  filter: Filter,
  horizontal: boolean,
): Uint8Array {
  const { bounds, weights, kernelSize } = coefficients(horizontal ? width : height, outSize, filter);
  const outWidth = horizontal ? outSize : width;
  const outHeight = horizontal ? height : outSize;
  const out = new Uint8Array(outWidth * outHeight * bands);
  // Distance between successive taps in the source, and where tap 0 of output (x, y) starts.
  const tapStride = horizontal ? bands : width * bands;
  for (let y = 0; y < outHeight; y++) {
    for (let x = 0; x < outWidth; x++) {
      const k = horizontal ? x : y;
      const min = bounds[k * 2];
      const count = bounds[k * 2 + 1];
      const base = k * kernelSize;
      const first = horizontal ? (y * width + min) * bands : (min * width + x) * bands;
      const o = (y * outWidth + x) * bands;
      for (let c = 0; c < bands; c++) {
        let sum = HALF;
        for (let i = 0, s = first + c; i < count; i++, s += tapStride) sum += src[s] * weights[base + i];
        const value = Math.floor(sum / ONE);
        out[o + c] = value < 0 ? 0 : Math.min(value, 255);
      }
    }
  }
  return out;
}

function resizeNearest(image: PilImage, width: number, height: number): PilImage {
  // Pillow resizes with NEAREST through ImagingScaleAffine: source coordinates start at scale/2 and advance by
  // repeated addition of the scale, truncated.
  const bands = bandCount(image.mode);
  const out = newImage(width, height, image.mode);
  const xs = sourceCoordinates(image.width / width, width);
  const ys = sourceCoordinates(image.height / height, height);
  const transparency = image.transparency ? new Uint8Array(width * height) : undefined;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const s = (ys[y] * image.width + xs[x]) * bands;
      const d = (y * width + x) * bands;
      for (let c = 0; c < bands; c++) out.data[d + c] = image.data[s + c];
      if (transparency && image.transparency) transparency[y * width + x] = image.transparency[ys[y] * image.width + xs[x]];
    }
  }
  if (transparency) out.transparency = transparency;
  return out;
}

function sourceCoordinates(scale: number, count: number): Int32Array {
  const coords = new Int32Array(count);
  let position = scale * 0.5;
  for (let i = 0; i < count; i++) {
    coords[i] = Math.trunc(position);
    position += scale;
  }
  return coords;
}

/** RGBA → RGBa: each colour band times alpha / 255, rounded as Pillow's MULDIV255. */
function premultiply(image: PilImage): PilImage {
  const bands = bandCount(image.mode);
  const out = newImage(image.width, image.height, image.mode, image.data.slice());
  for (let p = 0; p < out.data.length; p += bands) {
    const alpha = out.data[p + bands - 1];
    for (let c = 0; c < bands - 1; c++) {
      const t = out.data[p + c] * alpha + 128;
      out.data[p + c] = ((t >> 8) + t) >> 8;
    }
  }
  return out;
}

/** RGBa → RGBA: colour · 255 / alpha with integer division, clipped; alpha 0 and 255 leave the colour as is. */
function unpremultiply(image: PilImage): PilImage {
  const bands = bandCount(image.mode);
  const data = image.data;
  for (let p = 0; p < data.length; p += bands) {
    const alpha = data[p + bands - 1];
    if (alpha === 0 || alpha === 255) continue;
    for (let c = 0; c < bands - 1; c++) data[p + c] = Math.min(255, Math.floor((255 * data[p + c]) / alpha));
  }
  return image;
}
