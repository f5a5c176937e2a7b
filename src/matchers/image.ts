// toMatchImage: SSIM (OSWorld's compare_images by default, or any image metric) as an assertion. A failure attaches
// the expected image, the received one and their difference to the test.
import sharp from 'sharp';
import { runMetric } from '../eval/run-metric.ts';
import type { Options } from '../eval/registry.ts';
import { defineMatcher } from './framework.ts';
import type { MatcherAttachment } from './framework.ts';

export interface ImageMatchOptions {
  /** Minimum score; default 0.99 for the SSIM of compare_images, 1 for other metrics. */
  threshold?: number;
  /** Image metric giving the score, default "compare_images" (grey SSIM); e.g. "check_structure_sim". */
  metric?: string;
  /** Options passed to the metric. */
  options?: Options;
}

/** PNGs of both images (the received one resized to the expected size) and of their per-pixel absolute difference. */
async function imageDiff(received: string, expected: string): Promise<MatcherAttachment[]> {
  const want = sharp(expected).removeAlpha().toColourspace('srgb');
  const { width, height } = await sharp(expected).metadata();
  if (!width || !height) return [];
  const a = await sharp(received).removeAlpha().toColourspace('srgb').resize(width, height, { fit: 'fill' }).raw().toBuffer();
  const b = await want.raw().toBuffer();
  const diff = Buffer.alloc(width * height);
  for (let p = 0; p < width * height; p++) {
    const d = Math.max(Math.abs(a[p * 3] - b[p * 3]), Math.abs(a[p * 3 + 1] - b[p * 3 + 1]), Math.abs(a[p * 3 + 2] - b[p * 3 + 2]));
    diff[p] = d;
  }
  const png = (raw: Buffer, channels: 1 | 3) => sharp(raw, { raw: { width, height, channels } }).png().toBuffer();
  return [
    { message: 'expected image', contentType: 'image/png', body: await png(b, 3) },
    { message: 'received image (resized to the expected size)', contentType: 'image/png', body: await png(a, 3) },
    { message: 'difference (brighter = more different)', contentType: 'image/png', body: await png(diff, 1) },
  ];
}

export const toMatchImage = defineMatcher('toMatchImage', async (received: unknown, expected: string, options: ImageMatchOptions = {}) => {
  const metric = options.metric ?? 'compare_images';
  const threshold = options.threshold ?? (metric === 'compare_images' ? 0.99 : 1);
  const score = await runMetric(metric, received as string, expected, options.options ?? {});
  const pass = score >= threshold;
  const what = metric === 'compare_images' ? 'SSIM' : `${metric} score`;
  return {
    pass,
    message: `${what} ${score.toFixed(4)} ${pass ? 'meets' : 'is below'} the threshold ${threshold}`,
    actual: score,
    expected: threshold,
    attachments: await imageDiff(received as string, expected).catch(() => []),
  };
}, { golden: true });
