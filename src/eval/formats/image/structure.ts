// OSWorld's shared image checks (gimp.py): structure_check_by_ssim and structure_check_by_mse, plus path handling
// common to the image metrics.
import { existsSync } from 'node:fs';
import { convert } from './convert.ts';
import type { PilImage } from './pil-image.ts';
import { resize } from './resize.ts';
import { structuralSimilarity } from './ssim.ts';
import { MalformedInputError } from '../../../errors.ts';

/** SSIM of two same-sized images as RGB (channel_axis=2, window 7), the mean over the three channels. */
function rgbSsim(a: PilImage, b: PilImage): number {
  const x = convert(a, 'RGB');
  const y = convert(b, 'RGB');
  if (x.width !== y.width || x.height !== y.height) {
    throw new MalformedInputError(`SSIM needs equal sizes, got ${x.width}x${x.height} and ${y.width}x${y.height}`);
  }
  return structuralSimilarity(x.data, y.data, x.width, x.height, 3);
}

/**
 * structure_check_by_ssim(img1, img2, threshold=0.9): false when either side is under 7 px or the sizes differ;
 * otherwise RGB SSIM ≥ threshold.
 */
export function structureCheckBySsim(a: PilImage, b: PilImage, threshold = 0.9): boolean {
  if (a.width < 7 || a.height < 7 || b.width < 7 || b.height < 7) return false;
  if (a.width !== b.width || a.height !== b.height) return false;
  return rgbSsim(a, b) >= threshold;
}

/**
 * structure_check_by_mse(img1, img2, threshold=0.03): img1 is LANCZOS-resized to img2's size if needed, both go to
 * RGB, and the mean squared difference of the [0, 1]-scaled samples must be below the threshold.
 */
export function structureCheckByMse(a: PilImage, b: PilImage, threshold = 0.03): boolean {
  if (a.width !== b.width || a.height !== b.height) a = resize(a, b.width, b.height, 'lanczos');
  const x = convert(a, 'RGB').data;
  const y = convert(b, 'RGB').data;
  let sum = 0;
  for (let i = 0; i < x.length; i++) {
    const d = x[i] / 255 - y[i] / 255;
    sum += d * d;
  }
  return sum / x.length < threshold;
}

/** np.std(np.asarray(image)): population standard deviation of every sample, alpha band included. */
export function sampleStandardDeviation(image: PilImage): number {
  const data = image.data;
  let mean = 0;
  for (const v of data) mean += v;
  mean /= data.length;
  let variance = 0;
  for (const v of data) variance += (v - mean) ** 2;
  return Math.sqrt(variance / data.length);
}

/** OSWorld's `os.path.exists` guard. */
export function fileExists(path: string): boolean {
  return existsSync(path);
}

