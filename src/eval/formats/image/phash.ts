// imagehash.phash as OSWorld uses it (compare_pdf_images, compare_videos): grey, LANCZOS to 32×32, a 2-D DCT-II
// (scipy.fftpack, unnormalised), the top-left 8×8 block compared with its median. Distance = differing bits.
import { convert } from './convert.ts';
import type { PilImage } from './pil-image.ts';
import { resize } from './resize.ts';
import { InternalError } from '../../../errors.ts';

const HASH_SIZE = 8;
const IMAGE_SIZE = HASH_SIZE * 4;

/** The 64 hash bits, row-major (true where the DCT coefficient exceeds the median). */
export function perceptualHash(image: PilImage): boolean[] {
  const grey = resize(convert(image, 'L'), IMAGE_SIZE, IMAGE_SIZE, 'lanczos');
  const pixels = grey.data;
  // dct along axis 0 (columns), then along axis 1 (rows); only the first 8 frequencies of each are needed.
  const cosines = COSINES;
  const columnPass = new Float64Array(HASH_SIZE * IMAGE_SIZE); // [k][x]
  for (let k = 0; k < HASH_SIZE; k++) {
    for (let x = 0; x < IMAGE_SIZE; x++) {
      let sum = 0;
      for (let y = 0; y < IMAGE_SIZE; y++) sum += pixels[y * IMAGE_SIZE + x] * cosines[k * IMAGE_SIZE + y];
      columnPass[k * IMAGE_SIZE + x] = 2 * sum;
    }
  }
  const low = new Float64Array(HASH_SIZE * HASH_SIZE);
  for (let k = 0; k < HASH_SIZE; k++) {
    for (let l = 0; l < HASH_SIZE; l++) {
      let sum = 0;
      for (let x = 0; x < IMAGE_SIZE; x++) sum += columnPass[k * IMAGE_SIZE + x] * cosines[l * IMAGE_SIZE + x];
      low[k * HASH_SIZE + l] = 2 * sum;
    }
  }
  const median = medianOf(low);
  return Array.from(low, (value) => value > median);
}

/** `hash1 - hash2` in imagehash: the Hamming distance. */
export function hashDistance(a: readonly boolean[], b: readonly boolean[]): number {
  if (a.length !== b.length) throw new InternalError(`hashes differ in length: ${a.length} vs ${b.length}`);
  let distance = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) distance++;
  return distance;
}

/** cos(pi·k·(2i+1)/2N) for the first 8 frequencies over 32 samples, computed once. */
const COSINES = dctBasis(IMAGE_SIZE, HASH_SIZE);

function dctBasis(n: number, frequencies: number): Float64Array {
  const basis = new Float64Array(frequencies * n);
  for (let k = 0; k < frequencies; k++) {
    for (let i = 0; i < n; i++) basis[k * n + i] = Math.cos((Math.PI * k * (2 * i + 1)) / (2 * n));
  }
  return basis;
}

function medianOf(values: Float64Array): number {
  const sorted = values.slice().sort(); // typed arrays sort numerically
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
