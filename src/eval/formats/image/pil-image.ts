// An image as Pillow sees it after `Image.open`: its mode (L, RGB, RGBA, P…) and its 8-bit pixels. OSWorld's image
// metrics branch on the mode (palette checks, alpha bounding boxes, `transparency` in img.info), so we keep it.
// Pixels are decoded with sharp; the mode comes from the file header, as Pillow derives it.
import { readFileSync } from 'node:fs';
import sharp, { type Metadata, type OutputInfo } from 'sharp';
import { decodePng, isPng } from './png.ts';
import { InternalError, MalformedInputError } from '../../../errors.ts';

/**
 * Pillow modes we represent. 'P' (palette) is stored expanded to RGB samples: every conversion Pillow does from P
 * goes through the palette colours, so only palette *indices* are lost (see `point`).
 */
export type Mode = '1' | 'L' | 'LA' | 'P' | 'RGB' | 'RGBA';

export interface PilImage {
  width: number;
  height: number;
  mode: Mode;
  /** Interleaved 8-bit samples, `bandCount(mode)` per pixel, rows top to bottom. */
  data: Uint8Array;
  /**
   * Pillow's `info['transparency']` (a PNG tRNS chunk on an L, RGB or P image), expanded to one alpha value per pixel.
   * Pillow applies it when such an image is converted to RGBA/LA.
   */
  transparency?: Uint8Array;
}

/** Samples per pixel as stored here (P is stored as RGB). */
export function bandCount(mode: Mode): number {
  switch (mode) {
    case '1':
    case 'L':
      return 1;
    case 'LA':
      return 2;
    case 'P':
    case 'RGB':
      return 3;
    case 'RGBA':
      return 4;
  }
}

export function hasAlphaBand(mode: Mode): boolean {
  return mode === 'LA' || mode === 'RGBA';
}

export function newImage(width: number, height: number, mode: Mode, data?: Uint8Array): PilImage {
  const size = width * height * bandCount(mode);
  if (data && data.length !== size) {
    throw new InternalError(`image data has ${data.length} samples, expected ${size} for ${width}x${height} ${mode}`);
  }
  return { width, height, mode, data: data ?? new Uint8Array(size) };
}

/** `Image.open(path)` followed by a load: decodes the file and determines Pillow's mode. */
export async function openImage(path: string): Promise<PilImage> {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path); // sync: for the small files metrics read, the promise round trip costs more than the read
  } catch (error) {
    throw new MalformedInputError(`cannot read image file ${path}: ${(error as Error).message}`);
  }
  return decodeImage(bytes, path);
}

/**
 * Decodes image bytes (PNG, JPEG, GIF, WebP, TIFF…) into Pillow's mode and 8-bit samples: plain PNGs in process
 * (png.ts, far cheaper for small images), everything else with sharp.
 */
async function decodeImage(bytes: Uint8Array, label = 'image'): Promise<PilImage> {
  return (isPng(bytes) && decodePng(bytes)) || decodeWithSharp(bytes, label);
}

/** The sharp (libvips) path of decodeImage, for every format. */
export async function decodeWithSharp(bytes: Uint8Array, label = 'image'): Promise<PilImage> {
  let raw: { data: Buffer; info: OutputInfo };
  let meta: Metadata;
  try {
    const input = sharp(bytes, { limitInputPixels: false });
    meta = await input.metadata();
    // keepIccProfile: Pillow does no colour management, so neither may we (sharp would convert to sRGB).
    raw = await input.keepIccProfile().raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
  } catch (error) {
    throw new MalformedInputError(`cannot decode image ${label}: ${(error as Error).message}`);
  }
  const { width, height, channels } = raw.info;
  const png = meta.format === 'png' ? readPngHeader(bytes) : undefined;
  const mode = pillowMode(meta, png);
  const pixels = width * height;
  const src = raw.data;
  const alphaFromDecoder = (): Uint8Array | undefined => {
    if (channels !== 4 && channels !== 2) return undefined;
    const alpha = new Uint8Array(pixels);
    for (let i = 0; i < pixels; i++) alpha[i] = src[i * channels + channels - 1];
    return alpha;
  };
  const image = newImage(width, height, mode);
  const bands = bandCount(mode);
  const colour = channels >= 3; // sharp hands back sRGB for most inputs, even greyscale ones
  for (let i = 0; i < pixels; i++) {
    const s = i * channels;
    const d = i * bands;
    if (bands === 1 || bands === 2) {
      image.data[d] = src[s]; // grey replicated into R=G=B, or a single band
      if (bands === 2) image.data[d + 1] = src[s + channels - 1];
    } else {
      image.data[d] = src[s];
      image.data[d + 1] = colour ? src[s + 1] : src[s];
      image.data[d + 2] = colour ? src[s + 2] : src[s];
      if (bands === 4) image.data[d + 3] = channels === 4 || channels === 2 ? src[s + channels - 1] : 255;
    }
  }
  if (!hasAlphaBand(mode) && (png?.hasTrns || (mode === 'P' && (channels === 4 || channels === 2)))) {
    image.transparency = alphaFromDecoder();
  }
  return image;
}

interface PngHeader {
  bitDepth: number;
  colourType: number;
  hasTrns: boolean;
}

/** Reads the IHDR colour type and whether a tRNS chunk exists: Pillow's mode for a PNG follows from these. */
function readPngHeader(bytes: Uint8Array): PngHeader {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const header: PngHeader = { bitDepth: bytes[24], colourType: bytes[25], hasTrns: false };
  let offset = 8;
  while (offset + 8 <= bytes.length) {
    const length = view.getUint32(offset);
    const type = String.fromCharCode(...bytes.subarray(offset + 4, offset + 8));
    if (type === 'tRNS') header.hasTrns = true;
    if (type === 'IDAT' || type === 'IEND') break; // tRNS must precede IDAT
    offset += 12 + length;
  }
  return header;
}

function pillowMode(meta: Metadata, png: PngHeader | undefined): Mode {
  if (png) {
    switch (png.colourType) {
      case 0:
        return png.bitDepth === 1 ? '1' : 'L';
      case 2:
        return 'RGB';
      case 3:
        return 'P';
      case 4:
        return 'LA';
      case 6:
        return 'RGBA';
    }
  }
  if (meta.format === 'gif' || meta.isPalette) return 'P';
  const channels = meta.channels ?? 3;
  if (meta.space === 'b-w') return channels === 2 ? 'LA' : 'L';
  // CMYK JPEGs: Pillow keeps mode CMYK; sharp converts to RGB. We treat them as RGB.
  return meta.hasAlpha ? 'RGBA' : 'RGB';
}
