// An in-place radix-2 complex FFT and the power spectra of real frames, two frames per complex transform (the real
// and imaginary parts carry one frame each, separated afterwards by conjugate symmetry). Enough for the STFT of the
// MFCC pipeline without a dependency: no normalisation, numpy's sign convention (X[k] = Σ x[n]·e^(-2πikn/N)).
import { InternalError } from '../../../errors.ts';

/** A planned transform of one power-of-two size: twiddles and the bit-reversal permutation, reused across calls. */
export class Fft {
  readonly size: number;
  private readonly cos: Float64Array;
  private readonly sin: Float64Array;
  private readonly reversed: Uint32Array;

  constructor(size: number) {
    if (!Number.isInteger(size) || size < 2 || (size & (size - 1)) !== 0) throw new InternalError(`FFT size must be a power of two ≥ 2, got ${size}`);
    this.size = size;
    this.cos = new Float64Array(size / 2);
    this.sin = new Float64Array(size / 2);
    for (let k = 0; k < size / 2; k++) {
      this.cos[k] = Math.cos((2 * Math.PI * k) / size);
      this.sin[k] = -Math.sin((2 * Math.PI * k) / size);
    }
    const bits = Math.log2(size);
    this.reversed = new Uint32Array(size);
    for (let i = 0; i < size; i++) {
      let r = 0;
      for (let b = 0, v = i; b < bits; b++, v >>= 1) r = (r << 1) | (v & 1);
      this.reversed[i] = r;
    }
  }

  /** Forward transform of (re, im) in place. */
  transform(re: Float64Array, im: Float64Array): void {
    const n = this.size;
    const reversed = this.reversed;
    const cos = this.cos;
    const sin = this.sin;
    for (let i = 0; i < n; i++) {
      const j = reversed[i];
      if (j > i) {
        let t = re[i];
        re[i] = re[j];
        re[j] = t;
        t = im[i];
        im[i] = im[j];
        im[j] = t;
      }
    }
    // Length-2 butterflies (twiddle 1).
    for (let a = 0; a < n; a += 2) {
      const xr = re[a + 1];
      const xi = im[a + 1];
      re[a + 1] = re[a] - xr;
      im[a + 1] = im[a] - xi;
      re[a] += xr;
      im[a] += xi;
    }
    // Longer butterflies; one twiddle per k, applied to every group.
    for (let half = 2, step = n / 4; half < n; half *= 2, step /= 2) {
      const span = 2 * half;
      for (let k = 0; k < half; k++) {
        const wr = cos[k * step];
        const wi = sin[k * step];
        for (let a = k; a < n; a += span) {
          const b = a + half;
          const br = re[b];
          const bi = im[b];
          const xr = br * wr - bi * wi;
          const xi = br * wi + bi * wr;
          const ar = re[a];
          const ai = im[a];
          re[b] = ar - xr;
          im[b] = ai - xi;
          re[a] = ar + xr;
          im[a] = ai + xi;
        }
      }
    }
  }

  /**
   * |rfft(a)|² and |rfft(b)|² (bins 0..N/2) of two real frames of length N, written to outA and outB. `re` and `im`
   * are scratch arrays of length N; on entry they must hold a and b (re = a, im = b).
   */
  powerSpectraOfPair(re: Float64Array, im: Float64Array, outA: Float64Array, outB: Float64Array): void {
    this.transform(re, im);
    const n = this.size;
    for (let k = 0; k <= n / 2; k++) {
      const m = (n - k) & (n - 1);
      // A[k] = (Z[k] + conj Z[N-k]) / 2, B[k] = (Z[k] - conj Z[N-k]) / 2i
      const ar = (re[k] + re[m]) / 2;
      const ai = (im[k] - im[m]) / 2;
      const br = (im[k] + im[m]) / 2;
      const bi = (re[m] - re[k]) / 2;
      outA[k] = ar * ar + ai * ai;
      outB[k] = br * br + bi * bi;
    }
  }
}
