// Band-limited resampling to librosa's rate (librosa.load's res_type 'soxr_hq').
//
// soxr's exact output cannot be reproduced here (its multi-stage design, filter lengths and phase details are its
// own), so this follows soxr HQ's published specification instead: linear phase, pass band flat to 91.3% of the
// lower Nyquist frequency, stop band from 100% with 20-bit (≈126 dB) rejection; a Kaiser-windowed sinc with its
// cut-off mid-transition. The two agree in the pass band and reject the stop band far below the −80 dB floor of the
// MFCCs; they differ in the shape of the transition band (the top few mel bands), so scores agree with OSWorld's
// closely, not bit for bit. (On the test clips, swapping this filter for scipy's default resample_poly filter moves
// the score by up to 1e-4.)
//
// Downsampling runs in two stages, so minutes of audio take a few hundred milliseconds:
//   1. the sharp low-pass at the input rate, as an FFT (overlap-save) convolution;
//   2. sampling that band-limited signal at the output instants: every M-th sample for an integer ratio, else a short
//      polyphase interpolator, which needs no sharp edge because stage 1 left nothing between the output Nyquist
//      frequency and the first image of the input rate.
// Upsampling (and the odd ratio where stage 2 would not be short) uses one direct polyphase filter.
// The output length is librosa's: ⌈len · to / from⌉ (its fix_length after soxr).
import { Fft } from './fft.ts';
import { MalformedInputError } from '../../../errors.ts';

export interface ResampleDesign {
  /** End of the pass band, as a fraction of the lower of the two Nyquist frequencies. */
  passbandEnd: number;
  /** Start of the stop band, as a fraction of the lower Nyquist frequency. */
  stopbandBegin: number;
  /** Stop-band rejection in dB (sets the Kaiser window and the filter length). */
  attenuationDb: number;
}

// soxr_quality_spec(SOXR_HQ): precision 20 bits, rejection (20 + 1) · 20·log10(2) dB, pass band to 0.913, stop band from 1.
const SOXR_HQ_LIKE: ResampleDesign = { passbandEnd: 0.913, stopbandBegin: 1, attenuationDb: 21 * 20 * Math.log10(2) };

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}

/** The zeroth-order modified Bessel function of the first kind (power series), for the Kaiser window. */
export function besselI0(x: number): number {
  let sum = 1;
  let term = 1;
  const q = (x * x) / 4;
  for (let k = 1; k < 500; k++) {
    term *= q / (k * k);
    sum += term;
    if (term < sum * 1e-17) break;
  }
  return sum;
}

/** Kaiser's β for a stop-band rejection of `a` dB. */
export function kaiserBeta(a: number): number {
  if (a > 50) return 0.1102 * (a - 8.7);
  if (a >= 21) return 0.5842 * (a - 21) ** 0.4 + 0.07886 * (a - 21);
  return 0;
}

/**
 * A Kaiser-windowed sinc low-pass for signals at `rate`: cut-off and transition width in Hz. Its length follows
 * Kaiser's estimate (A − 7.95) / (2.285 · 2π · Δf) seconds, rounded up to whole steps of `grid` (samples per second
 * of the filter as a single FIR: rate · up), and the window spans exactly that length, as scipy's firwin builds it.
 */
class Lowpass {
  readonly rate: number;
  readonly cutoff: number;
  readonly halfSeconds: number;
  private readonly beta: number;
  private readonly i0Beta: number;

  constructor(rate: number, cutoff: number, transition: number, attenuationDb: number, grid = rate) {
    this.rate = rate;
    this.cutoff = cutoff;
    this.beta = kaiserBeta(attenuationDb);
    this.i0Beta = besselI0(this.beta);
    const estimate = (attenuationDb - 7.95) / (2.285 * 2 * Math.PI * transition) / 2;
    this.halfSeconds = Math.ceil(estimate * grid) / grid;
  }

  /** One more than the support's half-width in samples at `rate` (so taps −halfTaps+1 … halfTaps−1 cover it). */
  get halfTaps(): number {
    return Math.floor(this.halfSeconds * this.rate + 1e-9) + 1;
  }

  /** The impulse response at `offset` samples from its centre (zero outside the window). */
  at(offset: number): number {
    const seconds = offset / this.rate;
    const r = seconds / this.halfSeconds;
    if (Math.abs(r) > 1 + 1e-12) return 0;
    const x = 2 * this.cutoff * seconds;
    const sinc = x === 0 ? 1 : Math.sin(Math.PI * x) / (Math.PI * x);
    return ((2 * this.cutoff) / this.rate) * sinc * (besselI0(this.beta * Math.sqrt(Math.max(0, 1 - r * r))) / this.i0Beta);
  }
}

/**
 * The taps of `filter` for each of `up` output phases: phase p holds the weights of input samples base−half+1 …
 * base+half for an output instant p/up of a sample past `base`, each phase scaled to unit gain at DC.
 */
function polyphaseTaps(filter: Lowpass, up: number): { half: number; taps: Float64Array[] } {
  const half = filter.halfTaps;
  const taps: Float64Array[] = [];
  for (let phase = 0; phase < up; phase++) {
    const row = new Float64Array(2 * half);
    let sum = 0;
    for (let j = 0; j < row.length; j++) sum += row[j] = filter.at(j - half + 1 - phase / up);
    for (let j = 0; j < row.length; j++) row[j] /= sum;
    taps.push(row);
  }
  return { half, taps };
}

/** out[k] = Σ taps · y around the instant k·down/up (in input samples); zeros outside the signal. */
function polyphase(y: ArrayLike<number>, up: number, down: number, half: number, taps: Float64Array[], length: number): Float32Array {
  const out = new Float32Array(length);
  const n = y.length;
  const width = 2 * half;
  for (let k = 0; k < length; k++) {
    const position = k * down;
    const base = Math.floor(position / up);
    const row = taps[position - base * up];
    const start = base - half + 1;
    const from = Math.max(0, -start);
    const to = Math.min(width, n - start);
    let acc = 0;
    for (let j = from; j < to; j++) acc += row[j] * y[start + j];
    out[k] = acc;
  }
  return out;
}

/** The linear-phase (centred) FIR filtering of y by `filter`, as an overlap-save FFT convolution; same length as y. */
export function fftFilter(y: ArrayLike<number>, filter: Float64Array): Float64Array {
  const taps = filter.length;
  const centre = (taps - 1) >> 1;
  let size = 1024;
  while (size < 4 * taps) size *= 2;
  const fft = new Fft(size);
  const step = size - taps + 1;
  // The filter's spectrum.
  const hRe = new Float64Array(size);
  const hIm = new Float64Array(size);
  hRe.set(filter);
  fft.transform(hRe, hIm);
  const n = y.length;
  const out = new Float64Array(n);
  const re = new Float64Array(size);
  const im = new Float64Array(size);
  // Linear convolution w[m] = Σ h[j]·y[m − j]; the centred output is out[i] = w[i + centre]. Block b yields w[b·step …
  // b·step + step) from the inputs y[b·step − taps + 1 …]; two blocks per transform (one real, one imaginary).
  const first = Math.floor(centre / step);
  const last = Math.floor((centre + n - 1) / step);
  for (let block = first; block <= last; block += 2) {
    const pair = block + 1 <= last;
    // Inputs y[start …] of this block (zeros outside the signal), the next block's in the imaginary part.
    const startA = block * step - taps + 1;
    const startB = startA + step;
    re.fill(0);
    im.fill(0);
    for (let i = Math.max(0, -startA), end = Math.min(size, n - startA); i < end; i++) re[i] = y[startA + i];
    if (pair) for (let i = Math.max(0, -startB), end = Math.min(size, n - startB); i < end; i++) im[i] = y[startB + i];
    fft.transform(re, im);
    // The product's conjugate, transformed forward: the inverse transform is its conjugate divided by the size.
    for (let k = 0; k < size; k++) {
      const zr = re[k];
      const zi = im[k];
      re[k] = zr * hRe[k] - zi * hIm[k];
      im[k] = -(zr * hIm[k] + zi * hRe[k]);
    }
    fft.transform(re, im);
    // Valid outputs are i ≥ taps − 1, i.e. w[block·step + i − taps + 1], stored at out[… − centre].
    const baseA = block * step - taps + 1 - centre;
    for (let i = Math.max(taps - 1, -baseA), end = Math.min(size, n - baseA); i < end; i++) out[baseA + i] = re[i] / size;
    if (pair) {
      const baseB = baseA + step;
      for (let i = Math.max(taps - 1, -baseB), end = Math.min(size, n - baseB); i < end; i++) out[baseB + i] = -im[i] / size;
    }
  }
  return out;
}

/** Resamples a signal from one rate to another; the same rate returns the input unchanged (as librosa does). */
export function resample(y: Float32Array, fromRate: number, toRate: number, spec: ResampleDesign = SOXR_HQ_LIKE): Float32Array {
  if (!(fromRate > 0 && toRate > 0 && Number.isInteger(fromRate) && Number.isInteger(toRate))) {
    throw new MalformedInputError(`resample: sample rates must be positive integers, got ${fromRate} → ${toRate}`);
  }
  if (fromRate === toRate) return y;
  const g = gcd(fromRate, toRate);
  const up = toRate / g;
  const down = fromRate / g;
  const length = Math.ceil((y.length * toRate) / fromRate);
  const nyquist = Math.min(fromRate, toRate) / 2;
  const cutoff = ((spec.passbandEnd + spec.stopbandBegin) / 2) * nyquist;
  const transition = (spec.stopbandBegin - spec.passbandEnd) * nyquist;
  const main = new Lowpass(fromRate, cutoff, transition, spec.attenuationDb, fromRate * up);

  if (fromRate > toRate) {
    // Stage 2's interpolator: flat up to the output Nyquist frequency (toRate / 2), rejecting from the first image of
    // what stage 1 kept (fromRate − toRate / 2): its cut-off is fromRate / 2, its transition fromRate − toRate wide.
    const interpolator = new Lowpass(fromRate, fromRate / 2, fromRate - toRate, spec.attenuationDb);
    if (up === 1 || interpolator.halfTaps * 8 < main.halfTaps) {
      const half = main.halfTaps;
      const kernel = new Float64Array(2 * half - 1);
      let sum = 0;
      for (let j = 0; j < kernel.length; j++) sum += kernel[j] = main.at(j - half + 1);
      for (let j = 0; j < kernel.length; j++) kernel[j] /= sum;
      const limited = fftFilter(y, kernel);
      if (up === 1) {
        const out = new Float32Array(length);
        for (let k = 0; k < length; k++) out[k] = k * down < limited.length ? limited[k * down] : 0;
        return out;
      }
      const { half: h2, taps } = polyphaseTaps(interpolator, up);
      return polyphase(limited, up, down, h2, taps, length);
    }
  }
  const { half, taps } = polyphaseTaps(main, up);
  return polyphase(y, up, down, half, taps, length);
}
