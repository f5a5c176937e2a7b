// Uncertainty of a benchmark's rates: 95% percentile bootstrap intervals over tasks (and, when tasks ran several
// times, over the runs within each task), the paired difference of two runs over the same tasks, and pass@k / pass^k.
// The resampling is driven by a seeded generator, so the same results always give the same intervals.

/** A rate with its interval, as fractions in [0, 1] (the reports print them × 100). */
export interface Estimate {
  estimate: number;
  low: number;
  high: number;
}

export interface BootstrapOptions {
  /** Resamples drawn (default 2000). */
  resamples?: number;
  /** Seed of the generator (default 1): the same seed and values give the same interval. */
  seed?: number;
  /** Coverage of the interval (default 0.95). */
  level?: number;
}

/** How an interval was computed, written beside it in report.json and compare.json. */
export interface BootstrapMethod {
  method: 'percentile bootstrap';
  /** What was resampled: tasks, and the runs within each task when tasks ran several times. */
  over: 'tasks' | 'tasks and runs within a task';
  resamples: number;
  seed: number;
  level: number;
}

const DEFAULTS = { resamples: 2000, seed: 1, level: 0.95 };

export function bootstrapMethod(tasks: readonly (readonly number[])[], options: BootstrapOptions = {}): BootstrapMethod {
  const { resamples, seed, level } = { ...DEFAULTS, ...options };
  return { method: 'percentile bootstrap', over: tasks.some((runs) => runs.length > 1) ? 'tasks and runs within a task' : 'tasks', resamples, seed, level };
}

/**
 * mulberry32: a small 32-bit generator, uniform in [0, 1). Not for cryptography; fine for resampling, and the same
 * seed gives the same sequence on every platform (integer arithmetic only).
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Mean over tasks of each task's mean over its runs. */
function meanOfMeans(tasks: readonly (readonly number[])[]): number {
  return tasks.reduce((total, runs) => total + mean(runs), 0) / tasks.length;
}

function mean(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0) / values.length;
}

/** One resample of a task's runs (with replacement), averaged; a single run is its own resample. */
function resampledMean(runs: readonly number[], random: () => number): number {
  if (runs.length === 1) return runs[0];
  let total = 0;
  for (let i = 0; i < runs.length; i++) total += runs[Math.floor(random() * runs.length)];
  return total / runs.length;
}

/**
 * The mean over tasks (each task the mean of its runs) with its percentile bootstrap interval: each resample draws
 * as many tasks as there are, with replacement, and within each drawn task as many runs as it has. `tasks[i]` holds
 * task i's values, one per run. Undefined when there are no tasks.
 */
export function bootstrapMean(tasks: readonly (readonly number[])[], options: BootstrapOptions = {}): Estimate | undefined {
  const tasksWithRuns = tasks.filter((runs) => runs.length > 0);
  if (!tasksWithRuns.length) return undefined;
  return bootstrap(meanOfMeans(tasksWithRuns), options, (random) => {
    let total = 0;
    for (let i = 0; i < tasksWithRuns.length; i++) total += resampledMean(tasksWithRuns[Math.floor(random() * tasksWithRuns.length)], random);
    return total / tasksWithRuns.length;
  });
}

/**
 * The paired difference b − a over the same tasks (`a[i]` and `b[i]` are task i's runs in each), with its percentile
 * bootstrap interval: each resample draws tasks with replacement, the same tasks for both, and the runs within each
 * drawn task separately for a and for b. Undefined when there are no tasks.
 */
export function bootstrapDifference(a: readonly (readonly number[])[], b: readonly (readonly number[])[], options: BootstrapOptions = {}): Estimate | undefined {
  if (a.length !== b.length) throw new RangeError(`bootstrapDifference: ${a.length} tasks in a, ${b.length} in b (they must be the same tasks)`);
  const pairs = a.map((runs, i) => [runs, b[i]] as const).filter(([x, y]) => x.length > 0 && y.length > 0);
  if (!pairs.length) return undefined;
  const estimate = pairs.reduce((total, [x, y]) => total + mean(y) - mean(x), 0) / pairs.length;
  return bootstrap(estimate, options, (random) => {
    let total = 0;
    for (let i = 0; i < pairs.length; i++) {
      const [x, y] = pairs[Math.floor(random() * pairs.length)];
      total += resampledMean(y, random) - resampledMean(x, random);
    }
    return total / pairs.length;
  });
}

function bootstrap(estimate: number, options: BootstrapOptions, resample: (random: () => number) => number): Estimate {
  const { resamples, seed, level } = { ...DEFAULTS, ...options };
  if (!(Number.isInteger(resamples) && resamples > 0)) throw new RangeError(`bootstrap: resamples must be a whole number above 0 (got ${resamples})`);
  if (!(level > 0 && level < 1)) throw new RangeError(`bootstrap: level must be between 0 and 1 (got ${level})`);
  const random = seededRandom(seed);
  const statistics = new Float64Array(resamples);
  for (let i = 0; i < resamples; i++) statistics[i] = resample(random);
  statistics.sort();
  const tail = (1 - level) / 2;
  return { estimate, low: quantile(statistics, tail), high: quantile(statistics, 1 - tail) };
}

/**
 * The q-quantile of sorted values as the inverse of their empirical distribution function: the smallest value whose
 * share of values at or below it reaches q. A tiny tolerance keeps 0.975 × 2000 = 1950 from reading 1950.0000000002.
 */
function quantile(sorted: Float64Array, q: number): number {
  const rank = Math.ceil(q * sorted.length - 1e-9);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

/** n choose k, exact for the run counts a benchmark has. */
function choose(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let result = 1;
  for (let i = 1; i <= k; i++) result = (result * (n - k + i)) / i;
  return result;
}

/**
 * pass@k of a task that passed c of its n runs: the chance that at least one of k runs drawn without replacement
 * passed, 1 − C(n−c, k) / C(n, k) (the unbiased estimator of Chen et al., 2021).
 */
export function passAtK(n: number, c: number, k: number): number {
  if (k > n) throw new RangeError(`pass@${k} needs at least ${k} runs of the task (it has ${n})`);
  return 1 - choose(n - c, k) / choose(n, k);
}

/** pass^k of a task that passed c of its n runs: the chance that all of k runs drawn passed, C(c, k) / C(n, k). */
export function passHatK(n: number, c: number, k: number): number {
  if (k > n) throw new RangeError(`pass^${k} needs at least ${k} runs of the task (it has ${n})`);
  return choose(c, k) / choose(n, k);
}
