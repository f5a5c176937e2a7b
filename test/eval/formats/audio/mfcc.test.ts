import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { Fft } from '../../../../src/eval/formats/audio/fft.ts';
import { loadAudio } from '../../../../src/eval/formats/audio/load.ts';
import {
  dctOrthoMatrix,
  hzToMel,
  melFilterbank,
  melToHz,
  mfcc,
  normalizeCoefficients,
  periodicHann,
  powerToDb,
} from '../../../../src/eval/formats/audio/mfcc.ts';

const dir = join(import.meta.dirname, '..', '..', '..', '..', 'fixtures', 'audio');
const expected = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8'));

/** A deterministic pseudo-random sequence (no Math.random, so a failure reproduces). */
function noise(n: number, seed: number): Float64Array {
  let s = seed;
  return Float64Array.from({ length: n }, () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648) - 0.5);
}

describe('FFT', () => {
  test.each([2, 8, 64, 2048])('size %i equals the direct DFT', (n) => {
    const xr = noise(n, 1);
    const xi = noise(n, 2);
    const re = xr.slice();
    const im = xi.slice();
    new Fft(n).transform(re, im);
    for (const k of [0, 1, n / 2, n - 1]) {
      let sr = 0;
      let si = 0;
      for (let t = 0; t < n; t++) {
        const a = (-2 * Math.PI * ((k * t) % n)) / n;
        sr += xr[t] * Math.cos(a) - xi[t] * Math.sin(a);
        si += xr[t] * Math.sin(a) + xi[t] * Math.cos(a);
      }
      expect(re[k]).toBeCloseTo(sr, 10);
      expect(im[k]).toBeCloseTo(si, 10);
    }
  });

  test('two real frames in one transform give each frame its own power spectrum', () => {
    const n = 64;
    const a = noise(n, 3);
    const b = noise(n, 4);
    const fft = new Fft(n);
    const [pa, pb] = [new Float64Array(n / 2 + 1), new Float64Array(n / 2 + 1)];
    fft.powerSpectraOfPair(a.slice(), b.slice(), pa, pb);
    const alone = (x: Float64Array) => {
      const re = x.slice();
      const im = new Float64Array(n);
      fft.transform(re, im);
      return Array.from({ length: n / 2 + 1 }, (_, k) => re[k] ** 2 + im[k] ** 2);
    };
    alone(a).forEach((v, k) => expect(pa[k]).toBeCloseTo(v, 10));
    alone(b).forEach((v, k) => expect(pb[k]).toBeCloseTo(v, 10));
  });

  test('rejects a size that is not a power of two', () => {
    expect(() => new Fft(1000)).toThrow('power of two');
  });
});

describe('mel scale and filterbank (Slaney)', () => {
  test('the scale is linear to 1 kHz (15 mels), then 27 mels per factor 6.4', () => {
    expect(hzToMel(200)).toBeCloseTo(3, 12);
    expect(hzToMel(1000)).toBeCloseTo(15, 12);
    expect(hzToMel(6400)).toBeCloseTo(42, 12);
    for (const hz of [0, 440, 999, 1000, 5000, 11025]) expect(melToHz(hzToMel(hz))).toBeCloseTo(hz, 9);
  });

  test('128 bands over 1025 bins; each band peaks below 1 and has unit area in Hz where it spans several bins', () => {
    const bands = melFilterbank(22050, 2048, 128);
    expect(bands).toHaveLength(128);
    const binHz = 22050 / 2048;
    for (const [index, band] of bands.entries()) {
      expect(band.first + band.weights.length).toBeLessThanOrEqual(1025);
      if (index >= 20) expect(band.weights.reduce((a, b) => a + b, 0) * binHz).toBeCloseTo(1, 1);
    }
    // Band centres rise monotonically.
    const starts = bands.map((b) => b.first);
    expect([...starts].sort((a, b) => a - b)).toEqual(starts);
  });

  test('weights equal the reference (librosa.filters.mel definition in numpy)', () => {
    const bands = melFilterbank(22050, 2048, 128);
    for (const [index, want] of Object.entries(expected.mel_bands) as [string, { first: number; weights: number[] }][]) {
      const band = bands[Number(index)];
      expect(band.first, `band ${index}`).toBe(want.first);
      expect(band.weights).toHaveLength(want.weights.length);
      want.weights.forEach((w, k) => expect(band.weights[k]).toBeCloseTo(w, 15));
    }
  });
});

describe('DCT-II, orthonormal', () => {
  test("rows equal scipy's definition: y_k = 2 Σ x_n cos(πk(2n+1)/2N) · sqrt(1/4N) for k = 0, sqrt(1/2N) otherwise", () => {
    const n = 128;
    const x = noise(n, 7);
    const matrix = dctOrthoMatrix(n, 20);
    for (let k = 0; k < 20; k++) {
      let direct = 0;
      for (let i = 0; i < n; i++) direct += 2 * x[i] * Math.cos((Math.PI * k * (2 * i + 1)) / (2 * n));
      direct *= k === 0 ? Math.sqrt(1 / (4 * n)) : Math.sqrt(1 / (2 * n));
      let viaMatrix = 0;
      for (let i = 0; i < n; i++) viaMatrix += matrix[k * n + i] * x[i];
      expect(viaMatrix).toBeCloseTo(direct, 12);
    }
  });

  test('the full matrix is orthonormal', () => {
    const n = 16;
    const c = dctOrthoMatrix(n, n);
    for (let a = 0; a < n; a++) {
      for (let b = 0; b < n; b++) {
        let dot = 0;
        for (let i = 0; i < n; i++) dot += c[a * n + i] * c[b * n + i];
        expect(dot).toBeCloseTo(a === b ? 1 : 0, 12);
      }
    }
  });
});

describe('power_to_db, normalize and the window', () => {
  test('10·log10 with amin 1e-10, floored at the maximum minus top_db', () => {
    expect(Array.from(powerToDb(Float64Array.from([1, 100, 1e-12, 0, 1e-7]), 1e-10, 80))).toEqual([0, 20, -60, -60, -60]);
    expect(Array.from(powerToDb(Float64Array.from([1, 0]), 1e-10, null))).toEqual([0, -100]);
  });

  test('normalize(axis=1): each coefficient over time divided by its largest magnitude; an all-zero one is kept', () => {
    const m = normalizeCoefficients({ frames: 3, width: 2, data: Float64Array.from([2, 0, -4, 0, 1, 0]) });
    expect(Array.from(m.data)).toEqual([0.5, 0, -1, 0, 0.25, 0]);
  });

  test('periodic Hann: starts at 0, peaks at N/2', () => {
    const w = periodicHann(2048);
    expect([w[0], w[1024]]).toEqual([0, 1]);
    expect(w[512]).toBeCloseTo(0.5, 15);
    expect(w[2047]).toBeCloseTo(w[1], 15);
  });
});

describe('mfcc', () => {
  test('1 + ⌊len/512⌋ frames of 20 coefficients, even for a signal shorter than one window', () => {
    expect(mfcc(new Float32Array(100).fill(0.1), { sampleRate: 22050 })).toMatchObject({ frames: 1, width: 20 });
    expect(mfcc(new Float32Array(1024), { sampleRate: 22050 }).frames).toBe(3);
  });

  // Without resampling both sides compute the same float64 formulas; only the summation order differs (their FFTs),
  // so the coefficients (in dB units, up to a few hundred) agree to ~1e-12.
  test('equals the numpy reference on the 22.05 kHz melody to 1e-9', async () => {
    const audio = await loadAudio(join(dir, 'melody-22k.wav'));
    const m = mfcc(audio.samples, { sampleRate: 22050 });
    const want: number[][] = expected.mfcc_melody_22k;
    expect(m.frames).toBe(want.length);
    want.forEach((row, t) => row.forEach((v, k) => expect(Math.abs(m.data[t * 20 + k] - v)).toBeLessThan(1e-9)));
  });

  // Through the resampler: the reference filters with scipy's resample_poly and the same filter specification, both
  // round to float32 as librosa does; the few samples that land on the other side of a float32 rounding step change
  // quiet bands slightly, hence 1e-6 here (the observed difference is ~1e-12).
  test('equals the numpy reference on the 44.1 kHz stereo melody (resampled) to 1e-6', async () => {
    const audio = await loadAudio(join(dir, 'melody-44k-stereo.wav'));
    expect(audio.samples.length).toBe(expected.resampled_44k_length);
    const m = mfcc(audio.samples, { sampleRate: 22050 });
    const want: number[][] = expected.mfcc_melody_44k;
    expect(m.frames).toBe(want.length);
    want.forEach((row, t) => row.forEach((v, k) => expect(Math.abs(m.data[t * 20 + k] - v)).toBeLessThan(1e-6)));
  });
});
