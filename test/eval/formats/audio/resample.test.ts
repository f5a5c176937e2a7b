import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { besselI0, fftFilter, kaiserBeta, resample } from '../../../../src/eval/formats/audio/resample.ts';

const expected = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', '..', '..', 'fixtures', 'audio', 'expected.json'), 'utf8'));

interface ResampleCase {
  rate: number;
  length: number;
  every: number;
  values: number[];
}
const resampleCases: Array<[number, ResampleCase]> = (expected.resample as ResampleCase[]).map((c) => [c.rate, c]);

function tone(rate: number, seconds: number, ...partials: Array<[number, number]>): Float32Array {
  const n = Math.floor(rate * seconds);
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) for (const [hz, amp] of partials) out[i] += amp * Math.sin((2 * Math.PI * hz * i) / rate);
  return out;
}

/** Mean power of the middle of a signal (edges excluded), in dB relative to a full-scale sine. */
function levelDb(x: Float32Array): number {
  let power = 0;
  const from = Math.floor(x.length / 4);
  const to = Math.floor((3 * x.length) / 4);
  for (let i = from; i < to; i++) power += x[i] ** 2;
  return 10 * Math.log10((2 * power) / (to - from));
}

describe('resample (soxr HQ-like)', () => {
  test("the same rate returns the input; the output length is librosa's ⌈len · to / from⌉", () => {
    const y = tone(22050, 0.01, [440, 0.5]);
    expect(resample(y, 22050, 22050)).toBe(y);
    expect(resample(new Float32Array(44101), 44100, 22050)).toHaveLength(22051);
    expect(resample(new Float32Array(1), 48000, 22050)).toHaveLength(1);
    expect(resample(new Float32Array(1000), 16000, 22050)).toHaveLength(1379);
  });

  test.each([44100, 48000, 32000, 96000, 16000, 8000])('%i Hz → 22050 Hz keeps a pass-band tone to float32 precision', (rate) => {
    const out = resample(tone(rate, 0.5, [1000, 0.6], [3000.5, 0.3]), rate, 22050);
    for (let k = 500; k < out.length - 500; k += 7) {
      const ideal = 0.6 * Math.sin((2 * Math.PI * 1000 * k) / 22050) + 0.3 * Math.sin((2 * Math.PI * 3000.5 * k) / 22050);
      expect(Math.abs(out[k] - ideal)).toBeLessThan(5e-6);
    }
  });

  test.each([
    [44100, 9000, 0],
    [44100, 10500, -4], // inside the transition band (91.3%–100% of 11025 Hz)
    [44100, 11500, -130],
    [48000, 15000, -130],
    [48000, 23000, -130],
  ])('%i Hz: a tone at %i Hz comes out at about %i dB', (rate, hz, db) => {
    const level = levelDb(resample(tone(rate, 0.5, [hz, 1]), rate, 22050));
    if (db === 0) expect(Math.abs(level)).toBeLessThan(0.01); // the window of the measurement is not a whole number of periods
    else if (db > -100) expect(Math.abs(level - db)).toBeLessThan(0.5);
    else expect(level).toBeLessThan(db);
  });

  // The reference resamples the same float32 tones with scipy's resample_poly and a filter of the same specification
  // (firwin, Kaiser window): our two-stage FFT path differs only by float32 rounding and, for fractional ratios, by
  // its short second-stage interpolator (~1e-6).
  test.each(resampleCases)('matches the scipy reference at %i Hz to 5e-6', (rate, { length, every, values }) => {
    const n = Math.floor(rate / 4);
    const x = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      const t = i / rate;
      x[i] = 0.5 * Math.sin(2 * Math.PI * 440.5 * t) + 0.3 * Math.sin(2 * Math.PI * 7000 * t) + 0.2 * Math.sin(2 * Math.PI * 10500 * t);
    }
    const out = resample(x, rate, 22050);
    expect(out).toHaveLength(length);
    values.forEach((v, k) => expect(Math.abs(out[k * every] - v)).toBeLessThan(5e-6));
  });

  test('the FFT convolution equals the direct sum', () => {
    const y = Float64Array.from({ length: 5000 }, (_, i) => Math.sin(i * 0.37) + ((i * 7919) % 13) / 13);
    const h = Float64Array.from({ length: 101 }, (_, j) => Math.exp(-((j - 50) ** 2) / 200) * (j % 3 ? 1 : -0.5));
    const out = fftFilter(y, h);
    for (const i of [0, 1, 49, 50, 2500, 4950, 4999]) {
      let direct = 0;
      for (let j = 0; j < h.length; j++) {
        const at = i + 50 - j;
        if (at >= 0 && at < y.length) direct += h[j] * y[at];
      }
      expect(out[i]).toBeCloseTo(direct, 11);
    }
  });

  test('Kaiser helpers: I0 and β', () => {
    expect(besselI0(0)).toBe(1);
    expect(besselI0(1)).toBeCloseTo(1.2660658777520082, 14);
    expect(kaiserBeta(126.4)).toBeCloseTo(0.1102 * (126.4 - 8.7), 12);
  });

  test('rejects rates that are not positive integers', () => {
    expect(() => resample(new Float32Array(4), 44100.5, 22050)).toThrow('sample rates must be positive integers');
  });
});
