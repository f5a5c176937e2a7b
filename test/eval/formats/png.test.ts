// The in-process PNG decoder must give exactly what the sharp path gives (mode, samples, tRNS transparency) for
// every PNG kind it accepts, and hand the kinds it does not accept (16-bit, interlaced) back to sharp.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { decodeWithSharp } from '../../../src/eval/formats/image/pil-image.ts';
import { decodePng } from '../../../src/eval/formats/image/png.ts';

const fixtures = join(import.meta.dirname, '..', '..', '..', 'fixtures');

function pngFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.png'))
    .map((entry) => join(entry.parentPath, entry.name));
}

async function expectSameAsSharp(bytes: Uint8Array, label: string): Promise<void> {
  const ours = decodePng(bytes);
  expect(ours, `${label} decoded in process`).toBeDefined();
  const reference = await decodeWithSharp(bytes, label);
  expect({ ...ours, data: Buffer.from(ours!.data).toString('base64') }, label).toEqual({
    ...reference,
    data: Buffer.from(reference.data).toString('base64'),
  });
}

// A 16x8 gradient with a few colours, to encode in the PNG kinds below.
const width = 16;
const height = 8;
const rgb = new Uint8Array(width * height * 3).map((_, i) => (i % 3 === 0 ? (i * 7) % 256 : i % 3 === 1 ? (i * 3) % 256 : 255 - (i % 256)));
const rgba = new Uint8Array(width * height * 4).map((_, i) => (i % 4 === 3 ? (i * 11) % 256 : (i * 5) % 256));
const raw = (data: Uint8Array, channels: 3 | 4) => sharp(data, { raw: { width, height, channels } });

describe('in-process PNG decoder', () => {
  it('matches sharp on every PNG fixture', async () => {
    const files = pngFiles(fixtures);
    expect(files.length).toBeGreaterThan(20);
    for (const file of files) {
      const bytes = new Uint8Array(readFileSync(file));
      if (decodePng(bytes)) await expectSameAsSharp(bytes, file);
    }
  });

  it('matches sharp on RGB, RGBA, grey, and 2-, 4- and 8-bit palette PNGs', async () => {
    const kinds: Array<[string, Promise<Buffer>]> = [
      ['rgb', raw(rgb, 3).png().toBuffer()],
      ['rgba', raw(rgba, 4).png().toBuffer()],
      ['grey', raw(rgb, 3).greyscale().png().toBuffer()],
      ['palette 2-bit', raw(rgb, 3).png({ palette: true, colours: 4, dither: 0 }).toBuffer()],
      ['palette 4-bit', raw(rgb, 3).png({ palette: true, colours: 16, dither: 0 }).toBuffer()],
      ['palette 8-bit with alpha', raw(rgba, 4).png({ palette: true, colours: 200, dither: 0 }).toBuffer()],
    ];
    for (const [label, bytes] of kinds) await expectSameAsSharp(new Uint8Array(await bytes), label);
  });

  it('leaves 16-bit, interlaced and damaged PNGs to sharp', async () => {
    const sixteen = await raw(rgb, 3).toColourspace('rgb16').png().toBuffer();
    const interlaced = await raw(rgb, 3).png({ progressive: true }).toBuffer();
    expect(decodePng(new Uint8Array(sixteen))).toBeUndefined();
    expect(decodePng(new Uint8Array(interlaced))).toBeUndefined();
    expect(decodePng(new Uint8Array(interlaced).subarray(0, 60))).toBeUndefined();
  });
});
