// The bootstrap behind every interval deskbench prints, checked against cases whose answer is known exactly: for
// tasks scored 0 or 1, the mean of a resample of n tasks is Binomial(n, p) / n, so with enough resamples the
// percentile interval is that distribution's 2.5% and 97.5% quantiles, computed here from the binomial formula.
import { describe, expect, test } from 'vitest';
import { bootstrapDifference, bootstrapMean, passAtK, passHatK, seededRandom } from '../../src/node/report/stats.ts';

/** The q-quantile of Binomial(n, p): the smallest x with P(X ≤ x) ≥ q. */
function binomialQuantile(n: number, p: number, q: number): number {
  let cumulative = 0;
  for (let x = 0; x <= n; x++) {
    cumulative += choose(n, x) * p ** x * (1 - p) ** (n - x);
    if (cumulative >= q - 1e-12) return x;
  }
  return n;
}

function choose(n: number, k: number): number {
  let result = 1;
  for (let i = 1; i <= k; i++) result = (result * (n - k + i)) / i;
  return result;
}

/** n tasks, c of them scored 1 and the rest 0, one run each. */
const passes = (n: number, c: number) => Array.from({ length: n }, (_, i) => [i < c ? 1 : 0]);

describe('seeded generator', () => {
  test('the same seed gives the same sequence; another seed another; values are uniform in [0, 1)', () => {
    const draw = (seed: number) => Array.from({ length: 5 }, seededRandom(seed));
    expect(draw(1)).toEqual(draw(1));
    expect(draw(2)).not.toEqual(draw(1));
    // Pinned: every interval deskbench has published depends on this sequence.
    expect(draw(1)[0]).toBe(0.6270739405881613);
    const random = seededRandom(42);
    const deciles = new Array(10).fill(0);
    for (let i = 0; i < 100_000; i++) {
      const value = random();
      expect(value >= 0 && value < 1).toBe(true);
      deciles[Math.floor(value * 10)]++;
    }
    for (const count of deciles) expect(Math.abs(count - 10_000)).toBeLessThan(400);
  });
});

describe('bootstrap intervals against the binomial distribution', () => {
  test.each([
    [4, 1],
    [4, 3],
    [20, 10],
  ])('%i tasks, %i passed: the interval is Binomial(n, c/n)’s 2.5%% and 97.5%% quantiles over n', (n, c) => {
    const interval = bootstrapMean(passes(n, c), { resamples: 20_000, seed: 7 });
    expect(interval).toEqual({
      estimate: c / n,
      low: binomialQuantile(n, c / n, 0.025) / n,
      high: binomialQuantile(n, c / n, 0.975) / n,
    });
  });

  test('hand-computed: 20 tasks, 10 passed → 50% with the interval 30% to 70%', () => {
    expect(bootstrapMean(passes(20, 10), { resamples: 20_000 })).toEqual({ estimate: 0.5, low: 0.3, high: 0.7 });
  });

  test('with repeats the runs within a task are resampled too: one task passing 3 of 4 runs gives 25% to 100%', () => {
    // Only one task, so all the spread comes from its runs: Binomial(4, 0.75) / 4.
    expect(bootstrapMean([[1, 0, 1, 1]], { resamples: 20_000 })).toEqual({ estimate: 0.75, low: 0.25, high: 1 });
    // Without the runs resampled the interval would be the single value.
    expect(bootstrapMean([[0.75]])).toEqual({ estimate: 0.75, low: 0.75, high: 0.75 });
  });

  test('the paired difference: B breaks 3 of 4 tasks A passed → −75% with the interval −100% to −25%', () => {
    const a = passes(4, 4);
    const b = passes(4, 1);
    // Each task's difference is −1 (three) or 0 (one): the resampled mean is −Binomial(4, 0.75) / 4.
    expect(bootstrapDifference(a, b, { resamples: 20_000 })).toEqual({ estimate: -0.75, low: -1, high: -0.25 });
    // Unchanged tasks give a difference of exactly 0.
    expect(bootstrapDifference(a, a)).toEqual({ estimate: 0, low: 0, high: 0 });
  });

  test('the same values and seed give the same interval; no tasks give none; bad options are refused', () => {
    const values = [[0.2], [0.9, 0.4], [1], [0], [0.5, 0.5, 1]];
    expect(bootstrapMean(values, { seed: 3 })).toEqual(bootstrapMean(values, { seed: 3 }));
    expect(bootstrapMean([])).toBeUndefined();
    expect(() => bootstrapMean(values, { resamples: 0 })).toThrow(/resamples must be a whole number above 0/);
    expect(() => bootstrapDifference([[1]], [])).toThrow(/1 tasks in a, 0 in b/);
  });
});

describe('pass@k and pass^k', () => {
  test('hand-computed for a task that passed 2 of 4 runs', () => {
    // pass@2 = 1 − C(2,2)/C(4,2) = 1 − 1/6; pass^2 = C(2,2)/C(4,2) = 1/6.
    expect(passAtK(4, 2, 2)).toBeCloseTo(5 / 6, 12);
    expect(passHatK(4, 2, 2)).toBeCloseTo(1 / 6, 12);
    // k = 1: both are the pass rate; k = n: pass@n is "passed at least once", pass^n "passed every time".
    expect(passAtK(4, 2, 1)).toBe(0.5);
    expect(passHatK(4, 2, 1)).toBe(0.5);
    expect(passAtK(4, 2, 4)).toBe(1);
    expect(passHatK(4, 2, 4)).toBe(0);
    expect(() => passAtK(2, 1, 3)).toThrow(/pass@3 needs at least 3 runs of the task \(it has 2\)/);
  });
});
