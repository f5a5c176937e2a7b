// Image metrics (OSWorld vlc.py compare_images, gimp.py): comparisons by SSIM, pixel identity, size and GIMP config.
// The GIMP edit checks (brightness, saturation, mirror, …) live in image-edits.ts; both are exported here as one
// family. Argument order is OSWorld's: `result` is the agent's file, `expected` the gold file or the rule dict.
import { readFileSync, statSync } from 'node:fs';
import type { Metric, Options } from '../registry.ts';
import { band, bandBoundingBox, convert, crop } from '../formats/image/convert.ts';
import { bandCount, hasAlphaBand, openImage, type PilImage } from '../formats/image/pil-image.ts';
import { resize } from '../formats/image/resize.ts';
import { structuralSimilarity } from '../formats/image/ssim.ts';
import { fileExists, structureCheckBySsim } from '../formats/image/structure.ts';
import { filePath } from './arguments.ts';
import { imageEditMetrics } from './image-edits.ts';
import { MetricOptionsError } from '../errors.ts';
import { MalformedInputError } from '../../errors.ts';

/**
 * compare_images(a, b, reference_base_result=None): grey both, LANCZOS-resize both to min(size_a, size_b) (a Python
 * tuple min: by width, then height), and return the raw SSIM (a float). With reference_base_result r the score is
 * (s − r)/(1 − r) when s ≥ r + 0.01, else 0. Missing, empty or unreadable files score 0.
 */
async function compareImages(result: unknown, expected: unknown, options: Options = {}): Promise<number> {
  const a = filePath(result, 'compare_images result');
  const b = filePath(expected, 'compare_images expected');
  if (!a || !b || !fileExists(a) || !fileExists(b)) return 0;
  if (statSync(a).size === 0 || statSync(b).size === 0) return 0;
  let first: PilImage;
  let second: PilImage;
  try {
    first = convert(await openImage(a), 'L');
    second = convert(await openImage(b), 'L');
  } catch {
    return 0;
  }
  const [width, height] = tupleMin([first.width, first.height], [second.width, second.height]);
  first = resize(first, width, height, 'lanczos');
  second = resize(second, width, height, 'lanczos');
  const similarity = structuralSimilarity(first.data, second.data, width, height, 1);
  const base = options.reference_base_result;
  if (base === undefined || base === null) return similarity;
  if (typeof base !== 'number') throw new MetricOptionsError(`compare_images: reference_base_result must be a number, got ${JSON.stringify(base)}`);
  return similarity >= base + 0.01 ? (similarity - base) / (1 - base) : 0;
}

function tupleMin(a: [number, number], b: [number, number]): [number, number] {
  if (a[0] !== b[0]) return a[0] < b[0] ? a : b;
  return a[1] <= b[1] ? a : b;
}

/** check_structure_sim(src, tgt): equal sizes and RGB SSIM ≥ 0.9. Any error scores 0, as in OSWorld's try/except. */
async function checkStructureSim(result: unknown, expected: unknown): Promise<number> {
  const src = filePath(result, 'check_structure_sim result');
  const tgt = filePath(expected, 'check_structure_sim expected');
  if (!src || !tgt) return 0;
  try {
    const a = await openImage(src);
    const b = await openImage(tgt);
    if (a.width !== b.width || a.height !== b.height) return 0;
    return structureCheckBySsim(a, b) ? 1 : 0;
  } catch {
    return 0;
  }
}

/**
 * check_structure_sim_resized(src, tgt): a src with alpha (RGBA/LA or a tRNS `transparency`) is cropped to the bbox
 * of its non-zero alpha (fully transparent → 0) and taken as RGB; src is then resized to tgt's size with Pillow's
 * default BICUBIC; SSIM ≥ 0.9.
 */
async function checkStructureSimResized(result: unknown, expected: unknown): Promise<number> {
  const src = filePath(result, 'check_structure_sim_resized result');
  const tgt = filePath(expected, 'check_structure_sim_resized expected');
  if (!src || !tgt) return 0;
  let source = await openImage(src);
  const target = await openImage(tgt);
  if (hasAlphaBand(source.mode) || source.transparency) {
    const rgba = convert(source, 'RGBA');
    const box = bandBoundingBox(band(rgba, -1));
    if (!box) return 0;
    source = convert(crop(rgba, box), 'RGB');
  }
  const resized = resize(source, target.width, target.height, 'bicubic');
  return structureCheckBySsim(resized, convert(target, 'RGB')) ? 1 : 0;
}

/**
 * check_structure_sim_with_threshold(src, tgt, ssim_threshold=0.85): src is LANCZOS-resized to tgt's size (in its
 * own mode, before the RGB conversion), then RGB SSIM ≥ threshold. The window shrinks to the largest odd size ≤ the
 * smaller side for images under 7 px. Errors score 0.
 */
async function checkStructureSimWithThreshold(result: unknown, expected: unknown, options: Options = {}): Promise<number> {
  const src = filePath(result, 'check_structure_sim_with_threshold result');
  const tgt = filePath(expected, 'check_structure_sim_with_threshold expected');
  if (!src || !tgt) return 0;
  const threshold = numberOption(options, 'ssim_threshold', 0.85, 'check_structure_sim_with_threshold');
  try {
    let a = await openImage(src);
    const b = await openImage(tgt);
    if (a.width !== b.width || a.height !== b.height) a = resize(a, b.width, b.height, 'lanczos');
    const x = convert(a, 'RGB');
    const y = convert(b, 'RGB');
    const minSide = Math.min(x.width, x.height);
    const winSize = minSide >= 7 ? 7 : minSide % 2 === 1 ? minSide : minSide - 1;
    if (winSize < 1) return 0;
    return structuralSimilarity(x.data, y.data, x.width, x.height, 3, { winSize }) >= threshold ? 1 : 0;
  } catch {
    return 0;
  }
}

/**
 * compare_image_list(pred, gold): str or parallel lists. Each pred is LANCZOS-resized to its gold's size, converted
 * to the gold's mode, and must then be pixel-identical (ImageChops.difference(...).getbbox() is None — which, for
 * images with an alpha band, looks at the alpha band only, as Pillow ≥ 10's getbbox(alpha_only=True) does).
 */
async function compareImageList(result: unknown, expected: unknown): Promise<number> {
  const preds = Array.isArray(result) ? result : [result];
  const golds = Array.isArray(result) ? (Array.isArray(expected) ? expected : [expected]) : [expected];
  const pairs = Math.min(preds.length, golds.length);
  for (let i = 0; i < pairs; i++) {
    const predPath = filePath(preds[i], `compare_image_list result[${i}]`);
    const goldPath = filePath(golds[i], `compare_image_list expected[${i}]`);
    if (!predPath || !goldPath) return 0;
    let pred = await openImage(predPath);
    const gold = await openImage(goldPath);
    if (pred.width !== gold.width || pred.height !== gold.height) pred = resize(pred, gold.width, gold.height, 'lanczos');
    if (pred.mode !== gold.mode) pred = convert(pred, gold.mode);
    if (differenceHasBox(pred, gold)) return 0;
  }
  return 1;
}

function differenceHasBox(a: PilImage, b: PilImage): boolean {
  const bands = bandCount(b.mode);
  const onlyAlpha = hasAlphaBand(b.mode);
  for (let i = 0; i < a.data.length; i += bands) {
    for (let c = onlyAlpha ? bands - 1 : 0; c < bands; c++) if (a.data[i + c] !== b.data[i + c]) return true;
  }
  return false;
}

/**
 * check_image_size(src, {width?, height?, ignore_transparent?}): exact dimensions. Python's precedence makes the
 * condition `(ignore_transparent and mode in (RGBA, LA)) or 'transparency' in info`: then the size of the non-zero
 * alpha bbox is used (0×0 when fully transparent).
 */
async function checkImageSize(result: unknown, expected: unknown): Promise<number> {
  const src = filePath(result, 'check_image_size result');
  if (!src) return 0;
  const rule = ruleDict(expected, 'check_image_size');
  const image = await openImage(src);
  let width = image.width;
  let height = image.height;
  if ((rule.ignore_transparent && hasAlphaBand(image.mode)) || image.transparency) {
    const box = bandBoundingBox(band(convert(image, 'RGBA'), -1));
    width = box ? box[2] - box[0] : 0;
    height = box ? box[3] - box[1] : 0;
  }
  const heightSame = rule.height === undefined || rule.height === null || height === rule.height;
  const widthSame = rule.width === undefined || rule.width === null || width === rule.width;
  return heightSame && widthSame ? 1 : 0;
}

/** check_image_file_size(src, {max_size}): the file is smaller than max_size bytes. */
async function checkImageFileSize(result: unknown, expected: unknown): Promise<number> {
  const src = filePath(result, 'check_image_file_size result');
  if (!src) return 0;
  const maxSize = numberOption(ruleDict(expected, 'check_image_file_size'), 'max_size', undefined, 'check_image_file_size');
  return statSync(src).size < maxSize ? 1 : 0;
}

/**
 * check_config_status(gimprc, {key, value}): some non-comment line, stripped of its outer parentheses and split on
 * whitespace, has key as its first item (or the two items of a two-item key list) and value as its last item.
 */
async function checkConfigStatus(result: unknown, expected: unknown): Promise<number> {
  const path = filePath(result, 'check_config_status result');
  if (!path) return 0;
  const rule = ruleDict(expected, 'check_config_status');
  const text = readFileSync(path, 'utf8');
  for (const line of splitLinesKeepEnds(text)) {
    if (line.startsWith('#') || line === '\n') continue;
    const items = stripChars(stripChars(line.trim(), '(', 'start'), ')\n', 'end').split(/\s+/).filter(Boolean);
    if (items.length === 0) throw new MalformedInputError(`check_config_status: blank line in ${path} (OSWorld fails with IndexError)`);
    const last = items[items.length - 1];
    if (typeof rule.key === 'string') {
      if (items[0] === rule.key && last === rule.value) return 1;
    } else if (Array.isArray(rule.key) && rule.key.length === 2) {
      if (items[0] === rule.key[0] && items[1] === rule.key[1] && last === rule.value) return 1;
    }
  }
  return 0;
}

/** Python's readlines(): lines with their '\n'. */
function splitLinesKeepEnds(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

function stripChars(text: string, chars: string, side: 'start' | 'end'): string {
  let start = 0;
  let end = text.length;
  if (side === 'start') while (start < end && chars.includes(text[start])) start++;
  else while (end > start && chars.includes(text[end - 1])) end--;
  return text.slice(start, end);
}

function ruleDict(expected: unknown, metric: string): Record<string, unknown> {
  if (!expected || typeof expected !== 'object' || Array.isArray(expected)) {
    throw new MetricOptionsError(`${metric}: expected must be the rule object (evaluator.expected {type: "rule", rules: {...}}), got ${JSON.stringify(expected)}`);
  }
  return expected as Record<string, unknown>;
}

function numberOption(options: Options, key: string, fallback: number | undefined, metric: string): number {
  const value = options[key] ?? fallback;
  if (typeof value !== 'number') throw new MetricOptionsError(`${metric}: ${key} must be a number, got ${JSON.stringify(options[key])}`);
  return value;
}

export const imageMetrics: Record<string, Metric> = {
  compare_images: compareImages,
  check_structure_sim: checkStructureSim,
  check_structure_sim_resized: checkStructureSimResized,
  check_structure_sim_with_threshold: checkStructureSimWithThreshold,
  compare_image_list: compareImageList,
  check_image_size: checkImageSize,
  check_image_file_size: checkImageFileSize,
  check_config_status: checkConfigStatus,
  ...imageEditMetrics,
};
