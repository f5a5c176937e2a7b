// PNG encoding of an X screen image with the cursor composited in, using only node:zlib.
import zlib from 'node:zlib';
import { promisify } from 'node:util';
import type { CursorImage, Image } from './x11.ts';

const deflate = promisify(zlib.deflate);

const CRC_TABLE = (() => {
  const table = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c;
  }
  return table;
})();

function crc32(data: Buffer): number {
  let crc = -1;
  for (let i = 0; i < data.length; i++) crc = CRC_TABLE[(crc ^ data[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ -1) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** RGB scanlines (filter byte 0 each) from BGRX pixels, with the cursor alpha-blended on top. */
function rgbScanlines(image: Image, cursor?: CursorImage): Buffer {
  const { width, height, bgrx } = image;
  const stride = 1 + width * 3;
  const raw = Buffer.alloc(height * stride);
  for (let y = 0; y < height; y++) {
    let o = y * stride + 1;
    let i = y * width * 4;
    for (let x = 0; x < width; x++, i += 4, o += 3) {
      raw[o] = bgrx[i + 2];
      raw[o + 1] = bgrx[i + 1];
      raw[o + 2] = bgrx[i];
    }
  }
  if (cursor) {
    for (let cy = 0; cy < cursor.height; cy++) {
      const y = cursor.y + cy;
      if (y < 0 || y >= height) continue;
      for (let cx = 0; cx < cursor.width; cx++) {
        const x = cursor.x + cx;
        if (x < 0 || x >= width) continue;
        const p = cursor.argb.readUInt32LE((cy * cursor.width + cx) * 4);
        const a = p >>> 24;
        if (a === 0) continue;
        const o = y * stride + 1 + x * 3;
        const keep = 255 - a; // premultiplied: out = src + dst * (1 - alpha)
        raw[o] = Math.min(255, ((p >>> 16) & 0xff) + Math.round((raw[o] * keep) / 255));
        raw[o + 1] = Math.min(255, ((p >>> 8) & 0xff) + Math.round((raw[o + 1] * keep) / 255));
        raw[o + 2] = Math.min(255, (p & 0xff) + Math.round((raw[o + 2] * keep) / 255));
      }
    }
  }
  return raw;
}

export async function encodePng(image: Image, cursor?: CursorImage): Promise<Buffer> {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(image.width, 0);
  header.writeUInt32BE(image.height, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(2, 9); // colour type: RGB
  const idat = await deflate(rgbScanlines(image, cursor), { level: 1 });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', idat),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
