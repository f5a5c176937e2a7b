// The few OpenCV operations GUI-OS's compare_jupyterlab_images uses: cv2.imread (BGR, alpha dropped) + BGR2GRAY,
// INTER_AREA downscaling, calcHist (256 bins), normalize(NORM_MINMAX) and compareHist(HISTCMP_CORREL).
import { convert } from './convert.ts';
import type { PilImage } from './pil-image.ts';
import { roundHalfEven } from '../../../python/round.ts';

export interface GreyImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/** cv2.cvtColor(BGR2GRAY) on 8-bit data: fixed-point weights 4899/9617/1868 with 14-bit shift, rounded. */
export function opencvGrey(image: PilImage): GreyImage {
  const rgb = convert(image, 'RGB');
  const data = new Uint8Array(rgb.width * rgb.height);
  for (let i = 0; i < data.length; i++) {
    const r = rgb.data[i * 3];
    const g = rgb.data[i * 3 + 1];
    const b = rgb.data[i * 3 + 2];
    data[i] = (b * 1868 + g * 9617 + r * 4899 + (1 << 13)) >> 14;
  }
  return { width: rgb.width, height: rgb.height, data };
}

/**
 * cv2.resize(..., INTER_AREA): each output pixel is the area-weighted mean of the source pixels its footprint
 * covers, rounded to nearest. (Upscaling, which OpenCV does bilinearly under INTER_AREA, is not needed here: the
 * caller only ever shrinks the larger image.)
 */
export function resizeArea(image: GreyImage, width: number, height: number): GreyImage {
  if (width === image.width && height === image.height) return image;
  const xWeights = areaWeights(image.width, width);
  const yWeights = areaWeights(image.height, height);
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let sum = 0;
      for (const [sy, wy] of yWeights[y]) {
        for (const [sx, wx] of xWeights[x]) sum += image.data[sy * image.width + sx] * wy * wx;
      }
      data[y * width + x] = Math.min(255, Math.max(0, roundHalfEven(sum)));
    }
  }
  return { width, height, data };
}

function areaWeights(inSize: number, outSize: number): Array<Array<[number, number]>> {
  const scale = inSize / outSize;
  const rows: Array<Array<[number, number]>> = [];
  for (let o = 0; o < outSize; o++) {
    const start = o * scale;
    const end = Math.min(inSize, start + scale);
    const row: Array<[number, number]> = [];
    for (let i = Math.floor(start); i < end; i++) {
      const covered = Math.min(end, i + 1) - Math.max(start, i);
      if (covered > 1e-9) row.push([i, covered / scale]);
    }
    rows.push(row);
  }
  return rows;
}

/** calcHist([img], [0], None, [256], [0, 256]) followed by normalize(H, H, 0, 1, NORM_MINMAX): float32 bins. */
export function normalisedHistogram(image: GreyImage): Float32Array {
  const counts = new Float64Array(256);
  for (const value of image.data) counts[value]++;
  let min = Infinity;
  let max = -Infinity;
  for (const c of counts) {
    if (c < min) min = c;
    if (c > max) max = c;
  }
  const scale = max - min > Number.EPSILON ? 1 / (max - min) : 0;
  const shift = -min * scale;
  return Float32Array.from(counts, (c) => c * scale + shift);
}

/** compareHist(H1, H2, HISTCMP_CORREL): Pearson correlation of the bins (1 when a histogram is flat). */
export function histogramCorrelation(h1: Float32Array, h2: Float32Array): number {
  let s1 = 0;
  let s2 = 0;
  let s11 = 0;
  let s12 = 0;
  let s22 = 0;
  for (let i = 0; i < h1.length; i++) {
    const a = h1[i];
    const b = h2[i];
    s12 += a * b;
    s1 += a;
    s11 += a * a;
    s2 += b;
    s22 += b * b;
  }
  const scale = 1 / h1.length;
  const numerator = s12 - s1 * s2 * scale;
  const denominator = (s11 - s1 * s1 * scale) * (s22 - s2 * s2 * scale);
  return Math.abs(denominator) > Number.EPSILON ? numerator / Math.sqrt(denominator) : 1;
}
