// The control server's screenshot PNG (server/png.ts), decoded by sharp: BGRX pixels come out as RGB, and the cursor
// is blended on top as premultiplied ARGB, clipped at the screen's edges.
import sharp from 'sharp';
import { expect, test } from 'vitest';
import { encodePng } from '../../server/png.ts';
import type { CursorImage, Image } from '../../server/x11.ts';

type Rgb = [number, number, number];

/** A BGRX screen image from RGB rows. */
function screen(rows: Rgb[][]): Image {
  const width = rows[0].length;
  const bgrx = Buffer.alloc(width * rows.length * 4);
  rows.flat().forEach(([r, g, b], i) => bgrx.set([b, g, r, 0xee], i * 4));
  return { width, height: rows.length, bgrx };
}

/** A cursor from premultiplied [alpha, r, g, b] pixels, one little-endian ARGB word each. */
function cursor(x: number, y: number, rows: [number, number, number, number][][]): CursorImage {
  const width = rows[0].length;
  const argb = Buffer.alloc(width * rows.length * 4);
  rows.flat().forEach(([a, r, g, b], i) => argb.writeUInt32LE(((a << 24) | (r << 16) | (g << 8) | b) >>> 0, i * 4));
  return { x, y, width, height: rows.length, argb };
}

async function decode(png: Buffer): Promise<{ width: number; height: number; channels: number; pixels: Rgb[] }> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  const pixels: Rgb[] = [];
  for (let i = 0; i < data.length; i += info.channels) pixels.push([data[i], data[i + 1], data[i + 2]]);
  return { width: info.width, height: info.height, channels: info.channels, pixels };
}

const RED: Rgb = [255, 0, 0];
const GREEN: Rgb = [0, 255, 0];
const BLUE: Rgb = [0, 0, 255];
const GREY: Rgb = [100, 100, 100];

test('a BGRX image becomes an 8-bit RGB PNG with the same pixels, row by row', async () => {
  const png = await encodePng(screen([[RED, GREEN, BLUE], [GREY, [1, 2, 3], [250, 128, 7]]]));
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const decoded = await decode(png);
  expect(decoded).toMatchObject({ width: 3, height: 2, channels: 3 });
  expect(decoded.pixels).toEqual([RED, GREEN, BLUE, GREY, [1, 2, 3], [250, 128, 7]]);
});

test('the cursor is blended as premultiplied alpha: opaque replaces, transparent keeps, half mixes', async () => {
  const image = screen([[GREY, GREY, GREY], [GREY, GREY, GREY]]);
  // At (1, 0): opaque white, fully transparent, then (second row) half-transparent premultiplied red and 0-alpha.
  const pointer = cursor(1, 0, [
    [[255, 255, 255, 255], [0, 255, 255, 255]],
    [[128, 128, 0, 0], [0, 0, 0, 0]],
  ]);
  const { pixels } = await decode(await encodePng(image, pointer));
  const half = Math.round((100 * 127) / 255); // dst * (1 - alpha)
  expect(pixels).toEqual([GREY, [255, 255, 255], GREY, GREY, [128 + half, half, half], GREY]);
});

test('a cursor partly off the screen is clipped, not wrapped onto other rows', async () => {
  const image = screen([[GREY, GREY], [GREY, GREY]]);
  // 2x2 opaque blue cursor at (-1, 1): only its top-right pixel lands, at (0, 1).
  const pointer = cursor(-1, 1, [
    [[255, 0, 0, 255], [255, 0, 0, 255]],
    [[255, 0, 0, 255], [255, 0, 0, 255]],
  ]);
  const { pixels } = await decode(await encodePng(image, pointer));
  expect(pixels).toEqual([GREY, GREY, BLUE, GREY]);
});
