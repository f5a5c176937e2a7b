// SSIM exactly as scikit-image's `structural_similarity` computes it with its defaults (not ssim.js, which
// downsamples): a uniform 7×7 window, sample covariance (N/(N−1) with N = 49), K1 = 0.01, K2 = 0.03, the data range
// of the dtype (255 for uint8), and the mean taken over the map cropped by (win−1)/2 on every side, i.e. over the
// windows that lie fully inside the image. With channel_axis, the result is the mean of the per-channel SSIMs.
import { InternalError, MalformedInputError } from '../../../errors.ts';

export interface SsimOptions {
  /** Odd window side, default 7. */
  winSize?: number;
  /** Default 255 (uint8 images). */
  dataRange?: number;
}

/**
 * SSIM of two images given as interleaved 8-bit samples with `channels` bands per pixel. Throws as scikit-image does
 * when the image is smaller than the window.
 */
export function structuralSimilarity(
  a: Uint8Array,
  b: Uint8Array,
  width: number,
  height: number,
  channels: number,
  options: SsimOptions = {},
): number {
  const win = options.winSize ?? 7;
  const range = options.dataRange ?? 255;
  if (a.length !== b.length || a.length !== width * height * channels) {
    throw new MalformedInputError(`SSIM inputs must have the same shape (${width}x${height}x${channels}), got ${a.length} and ${b.length} samples`);
  }
  if (win % 2 !== 1) throw new InternalError('SSIM window size must be odd');
  if (width < win || height < win) {
    throw new MalformedInputError(`win_size exceeds image extent: ${width}x${height} is smaller than the ${win}x${win} window`);
  }
  let total = 0;
  for (let c = 0; c < channels; c++) total += channelSsim(a, b, width, height, channels, c, win, range);
  return total / channels;
}

function channelSsim(
  a: Uint8Array,
  b: Uint8Array,
  width: number,
  height: number,
  channels: number,
  channel: number,
  win: number,
  range: number,
): number {
  const n = win * win;
  const covNorm = n / (n - 1);
  const c1 = (0.01 * range) ** 2;
  const c2 = (0.03 * range) ** 2;
  // Column sums over the current band of `win` rows, slid down one row at a time; window sums then slide along the
  // row. All sums are of integers, so they are exact in doubles (same values as a direct 7x7 summation).
  const cx = new Float64Array(width);
  const cy = new Float64Array(width);
  const cxx = new Float64Array(width);
  const cyy = new Float64Array(width);
  const cxy = new Float64Array(width);
  const addRow = (row: number, sign: number) => {
    let i = row * width * channels + channel;
    for (let x = 0; x < width; x++, i += channels) {
      const va = a[i];
      const vb = b[i];
      cx[x] += sign * va;
      cy[x] += sign * vb;
      cxx[x] += sign * va * va;
      cyy[x] += sign * vb * vb;
      cxy[x] += sign * va * vb;
    }
  };
  for (let row = 0; row < win - 1; row++) addRow(row, 1);
  let sum = 0;
  for (let y0 = 0; y0 + win <= height; y0++) {
    addRow(y0 + win - 1, 1);
    let sx = 0;
    let sy = 0;
    let sxx = 0;
    let syy = 0;
    let sxy = 0;
    for (let x = 0; x < width; x++) {
      sx += cx[x];
      sy += cy[x];
      sxx += cxx[x];
      syy += cyy[x];
      sxy += cxy[x];
      if (x >= win) {
        sx -= cx[x - win];
        sy -= cy[x - win];
        sxx -= cxx[x - win];
        syy -= cyy[x - win];
        sxy -= cxy[x - win];
      }
      if (x < win - 1) continue;
      const ux = sx / n;
      const uy = sy / n;
      const vx = covNorm * (sxx / n - ux * ux);
      const vy = covNorm * (syy / n - uy * uy);
      const vxy = covNorm * (sxy / n - ux * uy);
      sum += ((2 * ux * uy + c1) * (2 * vxy + c2)) / ((ux * ux + uy * uy + c1) * (vx + vy + c2));
    }
    addRow(y0, -1);
  }
  return sum / ((width - win + 1) * (height - win + 1));
}
