// A synchronous PNG decoder for the common case (not interlaced, 8-bit samples, or 1/2/4-bit grey and palette): the
// images the metrics compare are small screenshots and exports, where sharp's threaded pipeline costs milliseconds
// and this costs microseconds. Anything else (16-bit, interlaced, damaged files) returns undefined and goes to sharp.
import { inflateSync } from 'node:zlib';
import { newImage, type Mode, type PilImage } from './pil-image.ts';
import { MalformedInputError } from '../../../errors.ts';

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export function isPng(bytes: Uint8Array): boolean {
  return bytes.length > 8 && SIGNATURE.every((b, i) => bytes[i] === b);
}

/** Samples per pixel in the file, by IHDR colour type. */
const FILE_CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
/** Pillow's mode by colour type (bit depth 1 grey is mode '1'). */
const MODES: Record<number, Mode> = { 0: 'L', 2: 'RGB', 3: 'P', 4: 'LA', 6: 'RGBA' };

/** Pillow's image (mode, 8-bit samples, tRNS as per-pixel transparency) or undefined when sharp must decode it. */
export function decodePng(bytes: Uint8Array): PilImage | undefined {
  try {
    return decode(bytes);
  } catch {
    return undefined; // damaged or unusual: sharp reports it with its own message
  }
}

function decode(bytes: Uint8Array): PilImage | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let width = 0;
  let height = 0;
  let depth = 0;
  let colourType = -1;
  let palette: Uint8Array | undefined;
  let trns: Uint8Array | undefined;
  const idat: Uint8Array[] = [];
  let offset = 8;
  while (offset + 8 <= bytes.length) {
    const length = view.getUint32(offset);
    const type = String.fromCharCode(bytes[offset + 4], bytes[offset + 5], bytes[offset + 6], bytes[offset + 7]);
    const data = bytes.subarray(offset + 8, offset + 8 + length);
    if (data.length !== length) return undefined;
    if (type === 'IHDR') {
      width = view.getUint32(offset + 8);
      height = view.getUint32(offset + 12);
      depth = data[8];
      colourType = data[9];
      if (data[10] !== 0 || data[11] !== 0 || data[12] !== 0) return undefined; // compression, filter, interlace
    } else if (type === 'PLTE') palette = data;
    else if (type === 'tRNS') trns = data;
    else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    offset += 12 + length;
  }
  const fileChannels = FILE_CHANNELS[colourType];
  if (!fileChannels || width === 0 || height === 0 || idat.length === 0) return undefined;
  if (depth !== 8 && !(depth < 8 && (colourType === 0 || colourType === 3))) return undefined;
  if (colourType === 3 && !palette) return undefined;
  const rowBytes = Math.ceil((width * fileChannels * depth) / 8);
  const raw = inflateSync(idat.length === 1 ? idat[0] : Buffer.concat(idat));
  if (raw.length < (rowBytes + 1) * height) return undefined;
  const samples = unfilter(raw, rowBytes, height, Math.max(1, (fileChannels * depth) >> 3));
  const unpacked = depth === 8 ? samples : unpack(samples, rowBytes, width, height, depth);
  const mode: Mode = colourType === 0 && depth === 1 ? '1' : MODES[colourType];
  const pixels = width * height;
  if (colourType === 3) {
    const image = newImage(width, height, 'P');
    const pal = palette as Uint8Array;
    for (let i = 0; i < pixels; i++) {
      const entry = unpacked[i] * 3;
      image.data[i * 3] = pal[entry];
      image.data[i * 3 + 1] = pal[entry + 1];
      image.data[i * 3 + 2] = pal[entry + 2];
    }
    if (trns) {
      const alpha = new Uint8Array(pixels);
      for (let i = 0; i < pixels; i++) alpha[i] = unpacked[i] < trns.length ? trns[unpacked[i]] : 255;
      image.transparency = alpha;
    }
    return image;
  }
  // Grey samples of 1, 2 or 4 bits are scaled to 0..255 as Pillow's unpackers do; tRNS compares the raw value.
  const scale = depth < 8 ? 255 / ((1 << depth) - 1) : 1;
  const image = newImage(width, height, mode, depth === 8 ? unpacked.slice(0, pixels * fileChannels) : undefined);
  if (depth < 8) for (let i = 0; i < pixels; i++) image.data[i] = unpacked[i] * scale;
  if (trns && colourType === 0) {
    const key = view.getUint16(trns.byteOffset - bytes.byteOffset);
    const alpha = new Uint8Array(pixels);
    for (let i = 0; i < pixels; i++) alpha[i] = unpacked[i] === key ? 0 : 255;
    image.transparency = alpha;
  } else if (trns && colourType === 2) {
    const at = trns.byteOffset - bytes.byteOffset;
    const [r, g, b] = [view.getUint16(at), view.getUint16(at + 2), view.getUint16(at + 4)];
    const alpha = new Uint8Array(pixels);
    const data = image.data;
    for (let i = 0; i < pixels; i++) alpha[i] = data[i * 3] === r && data[i * 3 + 1] === g && data[i * 3 + 2] === b ? 0 : 255;
    image.transparency = alpha;
  }
  return image;
}

/**
 * Reverses the per-row filters (None, Sub, Up, Average, Paeth); returns the rows without their filter bytes. One
 * loop per filter type: a single loop that branches on the type per byte is several times slower.
 */
function unfilter(raw: Uint8Array, rowBytes: number, height: number, bpp: number): Uint8Array {
  const out = new Uint8Array(rowBytes * height);
  const zeros = new Uint8Array(rowBytes); // the row above the first
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (rowBytes + 1)];
    const src = y * (rowBytes + 1) + 1;
    const row = y * rowBytes;
    const line = raw.subarray(src, src + rowBytes);
    const up = y > 0 ? out.subarray(row - rowBytes, row) : zeros;
    const cur = out.subarray(row, row + rowBytes);
    switch (filter) {
      case 0:
        cur.set(line);
        break;
      case 1:
        for (let x = 0; x < bpp; x++) cur[x] = line[x];
        for (let x = bpp; x < rowBytes; x++) cur[x] = line[x] + cur[x - bpp];
        break;
      case 2:
        for (let x = 0; x < rowBytes; x++) cur[x] = line[x] + up[x];
        break;
      case 3:
        for (let x = 0; x < bpp; x++) cur[x] = line[x] + (up[x] >> 1);
        for (let x = bpp; x < rowBytes; x++) cur[x] = line[x] + ((cur[x - bpp] + up[x]) >> 1);
        break;
      case 4:
        for (let x = 0; x < bpp; x++) cur[x] = line[x] + up[x]; // a = c = 0: Paeth picks b
        for (let x = bpp; x < rowBytes; x++) {
          const a = cur[x - bpp];
          const b = up[x];
          const c = up[x - bpp];
          const pa = b > c ? b - c : c - b; // |p - a| with p = a + b - c
          const pb = a > c ? a - c : c - a;
          const pc = a + b - c - c > 0 ? a + b - c - c : c + c - a - b;
          cur[x] = line[x] + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
        }
        break;
      default:
        throw new MalformedInputError(`bad PNG filter ${filter}`);
    }
  }
  return out;
}

/** One value per pixel from rows packed at 1, 2 or 4 bits, most significant bits first. */
function unpack(rows: Uint8Array, rowBytes: number, width: number, height: number, depth: number): Uint8Array {
  const out = new Uint8Array(width * height);
  const mask = (1 << depth) - 1;
  const perByte = 8 / depth;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const byte = rows[y * rowBytes + Math.floor(x / perByte)];
      out[y * width + x] = (byte >> (8 - depth * ((x % perByte) + 1))) & mask;
    }
  }
  return out;
}
