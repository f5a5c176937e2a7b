// OSWorld's GIMP edit checks (gimp.py): did the agent's image (src) change in the asked way relative to the original
// or gold image (tgt) while keeping its structure? Each returns 1 or 0; a missing file scores 0.
import type { Metric, Options } from '../registry.ts';
import { convert, flipLeftRight, meanOfBand, numpyBands, point, toHsvBands } from '../formats/image/convert.ts';
import { bandCount, openImage, type PilImage } from '../formats/image/pil-image.ts';
import { fileExists, sampleStandardDeviation, structureCheckByMse, structureCheckBySsim } from '../formats/image/structure.ts';
import { filePath } from './arguments.ts';
import { MalformedInputError } from '../../errors.ts';

async function openPair(result: unknown, expected: unknown, metric: string): Promise<[PilImage, PilImage] | null> {
  const src = filePath(result, `${metric} result`);
  const tgt = filePath(expected, `${metric} expected`);
  if (!src || !tgt) return null;
  return [await openImage(src), await openImage(tgt)];
}

/** calculate_brightness: mean of the image converted to L. */
function brightness(image: PilImage): number {
  return meanOfBand(convert(image, 'L'));
}

/** normalize_brightness: every band (alpha too) scaled by target/brightness, truncated and clipped. */
function normalizeBrightness(image: PilImage, target: number): PilImage {
  const factor = target / brightness(image);
  return point(image, (x) => Math.min(255, Math.max(0, Math.trunc(x * factor))));
}

/**
 * check_brightness_decrease_and_structure_sim(src, tgt, threshold=0.03): src is darker than tgt, and after both are
 * normalised to mean brightness 128 their RGB MSE (on [0, 1]) is below the threshold.
 */
async function checkBrightnessDecreaseAndStructureSim(result: unknown, expected: unknown, options: Options = {}): Promise<number> {
  const pair = await openPair(result, expected, 'check_brightness_decrease_and_structure_sim');
  if (!pair) return 0;
  const [src, tgt] = pair;
  const threshold = typeof options.threshold === 'number' ? options.threshold : 0.03;
  const reduced = brightness(tgt) > brightness(src);
  const same = structureCheckByMse(normalizeBrightness(src, 128), normalizeBrightness(tgt, 128), threshold);
  return reduced && same ? 1 : 0;
}

/** check_saturation_increase_and_structure_sim(src, tgt): mean HSV saturation rose, and the H and V bands keep SSIM ≥ 0.9. */
async function checkSaturationIncreaseAndStructureSim(result: unknown, expected: unknown): Promise<number> {
  const pair = await openPair(result, expected, 'check_saturation_increase_and_structure_sim');
  if (!pair) return 0;
  const src = toHsvBands(pair[0]);
  const tgt = toHsvBands(pair[1]);
  const increased = meanOfBand(tgt.s) < meanOfBand(src.s);
  const same = structureCheckBySsim(src.h, tgt.h) && structureCheckBySsim(src.v, tgt.v);
  return increased && same ? 1 : 0;
}

/** check_contrast_increase_and_structure_sim(src, tgt): std of all samples rose, and SSIM ≥ 0.65. */
async function checkContrastIncreaseAndStructureSim(result: unknown, expected: unknown): Promise<number> {
  const pair = await openPair(result, expected, 'check_contrast_increase_and_structure_sim');
  if (!pair) return 0;
  const [src, tgt] = pair;
  const higher = sampleStandardDeviation(tgt) < sampleStandardDeviation(src);
  return higher && structureCheckBySsim(src, tgt, 0.65) ? 1 : 0;
}

/** check_image_mirror(src, tgt): src flipped left-right has SSIM ≥ 0.99 with tgt. */
async function checkImageMirror(result: unknown, expected: unknown): Promise<number> {
  const pair = await openPair(result, expected, 'check_image_mirror');
  if (!pair) return 0;
  return structureCheckBySsim(flipLeftRight(pair[0]), pair[1], 0.99) ? 1 : 0;
}

/**
 * check_green_background(src, tgt): wherever tgt is not black, src must be green (G > R and G > B). OSWorld indexes
 * the numpy arrays as [x, y] with x over the width — rows and columns swapped — so a non-square image fails with an
 * IndexError unless a mismatch is found first; we reproduce that order and throw the same way.
 */
async function checkGreenBackground(result: unknown, expected: unknown): Promise<number> {
  const pair = await openPair(result, expected, 'check_green_background');
  if (!pair) return 0;
  const [src, tgt] = pair;
  const at = (image: PilImage, row: number, col: number, name: string): Uint8Array => {
    if (row >= image.height || col >= image.width) {
      throw new MalformedInputError(`check_green_background: index (${row}, ${col}) is out of bounds for the ${image.width}x${image.height} ${name} image (OSWorld swaps x and y)`);
    }
    if (numpyBands(image) < 3) throw new MalformedInputError(`check_green_background: the ${name} image must be RGB(A), got mode ${image.mode}`);
    const bands = bandCount(image.mode);
    const offset = (row * image.width + col) * bands;
    return image.data.subarray(offset, offset + 3);
  };
  for (let x = 0; x < tgt.width; x++) {
    for (let y = 0; y < tgt.height; y++) {
      const [tr, tg, tb] = at(tgt, x, y, 'target');
      if (tr === 0 && tg === 0 && tb === 0) continue;
      const [r, g, b] = at(src, x, y, 'source');
      if (!(g > r && g > b)) return 0;
    }
  }
  return 1;
}

/** check_palette_and_structure_sim(src, tgt): src is a palette (P) image and, as RGB, has SSIM ≥ 0.9 with tgt. */
async function checkPaletteAndStructureSim(result: unknown, expected: unknown): Promise<number> {
  const pair = await openPair(result, expected, 'check_palette_and_structure_sim');
  if (!pair) return 0;
  const paletteBased = pair[0].mode === 'P';
  return paletteBased && structureCheckBySsim(convert(pair[0], 'RGB'), pair[1]) ? 1 : 0;
}

/**
 * check_triangle_position(tgt): takes the colour at index 1 of the unique colours sorted by ascending count (OSWorld
 * calls it the triangle colour; with two colours it is the more common one), and requires the centroid of its
 * pixels to lie within 5% of the image centre on both axes. Ties in count keep numpy's unique (lexicographic) order.
 */
async function checkTrianglePosition(result: unknown): Promise<number> {
  const path = filePath(result, 'check_triangle_position result');
  if (!path) return 0;
  const image = await openImage(path);
  const bands = numpyBands(image);
  if (bands < 2) throw new MalformedInputError(`check_triangle_position: needs a multi-band image (numpy shape[2]), got mode ${image.mode}`);
  // Each colour packed into one number, bands big-endian, so numeric order is numpy's lexicographic order.
  const pixels = image.width * image.height;
  const keys = new Float64Array(pixels);
  const data = image.data;
  for (let i = 0, s = 0; i < pixels; i++) {
    let key = 0;
    for (let c = 0; c < bands; c++, s++) key = key * 256 + data[s];
    keys[i] = key;
  }
  const counts = new Map<number, number>();
  for (let i = 0; i < pixels; i++) counts.set(keys[i], (counts.get(keys[i]) ?? 0) + 1);
  const colours = [...counts.entries()].sort((a, b) => a[1] - b[1] || a[0] - b[0]);
  if (colours.length < 2) throw new MalformedInputError('check_triangle_position: the image has a single colour (OSWorld fails with IndexError)');
  const triangle = colours[1][0];
  let rows = 0;
  let cols = 0;
  let n = 0;
  for (let i = 0; i < pixels; i++) {
    if (keys[i] !== triangle) continue;
    rows += Math.floor(i / image.width);
    cols += i % image.width;
    n++;
  }
  const centroid = [rows / n, cols / n];
  const centre = [image.height / 2, image.width / 2];
  const tolerance = [0.05 * image.height, 0.05 * image.width];
  return Math.abs(centroid[0] - centre[0]) < tolerance[0] && Math.abs(centroid[1] - centre[1]) < tolerance[1] ? 1 : 0;
}

/** check_textbox_on_leftside(src): the leftmost dark (L < 128) pixel of any row is within the left 5% of the width. */
async function checkTextboxOnLeftside(result: unknown): Promise<number> {
  const path = filePath(result, 'check_textbox_on_leftside result');
  if (!path) return 0;
  const grey = convert(await openImage(path), 'L');
  let leftmost = grey.width;
  for (let y = 0; y < grey.height; y++) {
    for (let x = 0; x < grey.width; x++) {
      if (grey.data[y * grey.width + x] < 128) {
        leftmost = Math.min(leftmost, x);
        break;
      }
    }
  }
  return leftmost < grey.width * 0.05 ? 1 : 0;
}

/** check_file_exists_and_structure_sim(src, tgt): src exists and has SSIM ≥ 0.9 with tgt. */
async function checkFileExistsAndStructureSim(result: unknown, expected: unknown): Promise<number> {
  const src = filePath(result, 'check_file_exists_and_structure_sim result');
  const tgt = filePath(expected, 'check_file_exists_and_structure_sim expected');
  if (!src || !tgt || !fileExists(src)) return 0;
  return structureCheckBySsim(await openImage(src), await openImage(tgt)) ? 1 : 0;
}

export const imageEditMetrics: Record<string, Metric> = {
  check_brightness_decrease_and_structure_sim: checkBrightnessDecreaseAndStructureSim,
  check_saturation_increase_and_structure_sim: checkSaturationIncreaseAndStructureSim,
  check_contrast_increase_and_structure_sim: checkContrastIncreaseAndStructureSim,
  check_image_mirror: checkImageMirror,
  check_green_background: checkGreenBackground,
  check_palette_and_structure_sim: checkPaletteAndStructureSim,
  check_triangle_position: checkTrianglePosition,
  check_textbox_on_leftside: checkTextboxOnLeftside,
  check_file_exists_and_structure_sim: checkFileExistsAndStructureSim,
};
