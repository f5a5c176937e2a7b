// librosa.feature.mfcc(y=y, sr=sr) with librosa's defaults (≥ 0.10), and librosa.util.normalize(mfcc, axis=1):
//   STFT: n_fft 2048, hop 512, periodic Hann window, center=True with zero padding (pad_mode 'constant'), power 2;
//   mel filterbank: 128 bands from 0 Hz to sr/2 on the Slaney mel scale (htk=False) with Slaney area normalisation;
//   power_to_db(ref=1.0, amin=1e-10, top_db=80.0) over the whole spectrogram;
//   DCT-II with orthonormal scaling over the mel axis, the first 20 coefficients, no liftering.
// librosa computes in float32; this computes in float64, which differs by float32 rounding only.
// Matrices are frame-major (one row per frame), i.e. librosa's result transposed, which is what fastdtw consumes.
import { Fft } from './fft.ts';

export interface MfccOptions {
  sampleRate: number;
  nFft?: number;
  hopLength?: number;
  nMels?: number;
  nMfcc?: number;
  topDb?: number;
  amin?: number;
}

/** A frames × coefficients matrix, row-major: value (t, k) is data[t * width + k]. */
export interface FrameMatrix {
  frames: number;
  width: number;
  data: Float64Array;
}

// The Slaney mel scale: linear below 1 kHz (200/3 Hz per mel), logarithmic above (27 mels per factor 6.4).
const F_SP = 200 / 3;
const MIN_LOG_HZ = 1000;
const MIN_LOG_MEL = MIN_LOG_HZ / F_SP;
const LOG_STEP = Math.log(6.4) / 27;

export function hzToMel(hz: number): number {
  return hz >= MIN_LOG_HZ ? MIN_LOG_MEL + Math.log(hz / MIN_LOG_HZ) / LOG_STEP : hz / F_SP;
}

export function melToHz(mel: number): number {
  return mel >= MIN_LOG_MEL ? MIN_LOG_HZ * Math.exp(LOG_STEP * (mel - MIN_LOG_MEL)) : F_SP * mel;
}

/** One triangular band of the filterbank: its weights on FFT bins first..first+weights.length-1, zero elsewhere. */
export interface MelBand {
  first: number;
  weights: Float64Array;
}

/**
 * librosa.filters.mel(sr, n_fft, n_mels, fmin=0, fmax=sr/2, htk=False, norm='slaney'): band i rises from the mel
 * point i to i+1 and falls to i+2 (points equally spaced in mel, converted to Hz), over the FFT bin frequencies
 * k·sr/n_fft, scaled by 2 / (width in Hz) so every band has the same area.
 */
export function melFilterbank(sampleRate: number, nFft: number, nMels: number, fmin = 0, fmax = sampleRate / 2): MelBand[] {
  const bins = nFft / 2 + 1;
  const lo = hzToMel(fmin);
  const hi = hzToMel(fmax);
  const points = Array.from({ length: nMels + 2 }, (_, i) => melToHz(lo + ((hi - lo) * i) / (nMels + 1)));
  const bands: MelBand[] = [];
  for (let i = 0; i < nMels; i++) {
    const [left, centre, right] = [points[i], points[i + 1], points[i + 2]];
    const scale = 2 / (right - left);
    const dense = new Float64Array(bins);
    let first = -1;
    let last = -1;
    for (let k = 0; k < bins; k++) {
      const f = (k * sampleRate) / nFft;
      const rising = (f - left) / (centre - left);
      const falling = (right - f) / (right - centre);
      const w = Math.max(0, Math.min(rising, falling));
      if (w > 0) {
        dense[k] = w * scale;
        if (first < 0) first = k;
        last = k;
      }
    }
    bands.push(first < 0 ? { first: 0, weights: new Float64Array(0) } : { first, weights: dense.slice(first, last + 1) });
  }
  return bands;
}

/** scipy.signal.get_window('hann', n) (fftbins=True): the periodic Hann window. */
export function periodicHann(n: number): Float64Array {
  const w = new Float64Array(n);
  for (let i = 0; i < n; i++) w[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / n);
  return w;
}

/**
 * The mel power spectrogram: frame t is y[t·hop − n_fft/2, t·hop + n_fft/2) (zeros outside the signal), windowed,
 * |rfft|², projected on the bands. There are 1 + ⌊len/hop⌋ frames.
 */
function melSpectrogram(y: ArrayLike<number>, bands: MelBand[], nFft: number, hopLength: number): FrameMatrix {
  const frames = 1 + Math.floor(y.length / hopLength);
  const nMels = bands.length;
  const out = new Float64Array(frames * nMels);
  const window = periodicHann(nFft);
  const fft = new Fft(nFft);
  const re = new Float64Array(nFft);
  const im = new Float64Array(nFft);
  const powerA = new Float64Array(nFft / 2 + 1);
  const powerB = new Float64Array(nFft / 2 + 1);
  const fill = (target: Float64Array, t: number) => {
    const start = t * hopLength - nFft / 2;
    if (start >= 0 && start + nFft <= y.length) {
      for (let n = 0; n < nFft; n++) target[n] = y[start + n] * window[n];
      return;
    }
    for (let n = 0; n < nFft; n++) {
      const i = start + n;
      target[n] = i >= 0 && i < y.length ? y[i] * window[n] : 0;
    }
  };
  const project = (power: Float64Array, t: number) => {
    for (let m = 0; m < nMels; m++) {
      const { first, weights } = bands[m];
      let sum = 0;
      for (let k = 0; k < weights.length; k++) sum += weights[k] * power[first + k];
      out[t * nMels + m] = sum;
    }
  };
  for (let t = 0; t < frames; t += 2) {
    fill(re, t);
    if (t + 1 < frames) fill(im, t + 1);
    else im.fill(0);
    fft.powerSpectraOfPair(re, im, powerA, powerB);
    project(powerA, t);
    if (t + 1 < frames) project(powerB, t + 1);
  }
  return { frames, width: nMels, data: out };
}

/** librosa.power_to_db(S, ref=1.0, amin, top_db) in place: 10·log10(max(amin, S)), floored at (max − top_db). */
export function powerToDb(s: Float64Array, amin = 1e-10, topDb: number | null = 80): Float64Array {
  let max = -Infinity;
  for (let i = 0; i < s.length; i++) {
    s[i] = 10 * Math.log10(Math.max(amin, s[i]));
    if (s[i] > max) max = s[i];
  }
  if (topDb !== null) {
    const floor = max - topDb;
    for (let i = 0; i < s.length; i++) if (s[i] < floor) s[i] = floor;
  }
  return s;
}

/**
 * The first `count` rows of the orthonormal DCT-II matrix of size n (scipy.fftpack.dct(type=2, norm='ortho')):
 * C[k][i] = sqrt((k ? 2 : 1) / n) · cos(π·k·(2i+1) / 2n).
 */
export function dctOrthoMatrix(n: number, count: number): Float64Array {
  const c = new Float64Array(count * n);
  for (let k = 0; k < count; k++) {
    const scale = Math.sqrt((k === 0 ? 1 : 2) / n);
    for (let i = 0; i < n; i++) c[k * n + i] = scale * Math.cos((Math.PI * k * (2 * i + 1)) / (2 * n));
  }
  return c;
}

/** librosa.feature.mfcc(y=y, sr=sr) with the defaults above, transposed (frames × n_mfcc). */
export function mfcc(y: ArrayLike<number>, options: MfccOptions): FrameMatrix {
  const nFft = options.nFft ?? 2048;
  const hop = options.hopLength ?? 512;
  const nMels = options.nMels ?? 128;
  const nMfcc = options.nMfcc ?? 20;
  const mel = melSpectrogram(y, melFilterbank(options.sampleRate, nFft, nMels), nFft, hop);
  powerToDb(mel.data, options.amin ?? 1e-10, options.topDb ?? 80);
  const dct = dctOrthoMatrix(nMels, nMfcc);
  const out = new Float64Array(mel.frames * nMfcc);
  for (let t = 0; t < mel.frames; t++) {
    const row = t * nMels;
    for (let k = 0; k < nMfcc; k++) {
      let sum = 0;
      for (let i = 0; i < nMels; i++) sum += dct[k * nMels + i] * mel.data[row + i];
      out[t * nMfcc + k] = sum;
    }
  }
  return { frames: mel.frames, width: nMfcc, data: out };
}

// np.finfo(np.float32).tiny: librosa's default threshold for a float32 matrix.
const FLOAT32_TINY = 2 ** -126;

/**
 * librosa.util.normalize(M, norm=inf, axis=1) of librosa's (n_mfcc × frames) matrix, i.e. here per column: each
 * coefficient divided by its largest magnitude over time; a coefficient whose largest magnitude is below the
 * threshold is left as it is. Returns a new matrix.
 */
export function normalizeCoefficients(m: FrameMatrix, threshold = FLOAT32_TINY): FrameMatrix {
  const { frames, width, data } = m;
  const out = new Float64Array(data.length);
  for (let k = 0; k < width; k++) {
    let length = 0;
    for (let t = 0; t < frames; t++) length = Math.max(length, Math.abs(data[t * width + k]));
    if (length < threshold) length = 1;
    for (let t = 0; t < frames; t++) out[t * width + k] = data[t * width + k] / length;
  }
  return { frames, width, data: out };
}
