// How alike two screenshots look over chosen regions: SSIM (scikit-image's, src/eval/formats/image/ssim.ts) of each
// region in grey at half size, averaged by area. Regions leave out what is meant to differ (the wallpaper, the clock,
// a notification): text renders differently across font versions, so compare layout, not lettering.
import sharp from 'sharp';
import { structuralSimilarity } from '../eval/formats/image/ssim.ts';
import type { Rect } from './osworld-screen.ts';

const SCALE = 0.5;

async function greyHalf(image: Buffer | string): Promise<{ data: Uint8Array; width: number; height: number }> {
  const { data, info } = await sharp(image).resize(960, 540, { fit: 'fill' }).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
}

function cropGrey(image: { data: Uint8Array; width: number }, [x, y, w, h]: Rect): Uint8Array {
  const out = new Uint8Array(w * h);
  for (let row = 0; row < h; row++) out.set(image.data.subarray((y + row) * image.width + x, (y + row) * image.width + x + w), row * w);
  return out;
}

/** SSIM in [−1, 1] of two 1920×1080 screenshots (PNG or JPEG bytes, or files) over the regions, weighted by area. */
export async function regionSimilarity(ours: Buffer | string, reference: Buffer | string, regions: readonly Rect[]): Promise<number> {
  const [a, b] = await Promise.all([greyHalf(ours), greyHalf(reference)]);
  let weighted = 0;
  let area = 0;
  for (const region of regions) {
    const half: Rect = [Math.round(region[0] * SCALE), Math.round(region[1] * SCALE), Math.round(region[2] * SCALE), Math.round(region[3] * SCALE)];
    const size = half[2] * half[3];
    weighted += structuralSimilarity(cropGrey(a, half), cropGrey(b, half), half[2], half[3], 1) * size;
    area += size;
  }
  return weighted / area;
}
