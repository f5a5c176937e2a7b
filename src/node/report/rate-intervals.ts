// The overall rate of a run with its 95% interval, in total and per domain: the single-run report's uncertainty
// (report.json `intervals`, the HTML report, the console summary). The rate is the report's overall rate — each task's
// raw score, errors and skips counting 0 — averaged over tasks; with repeats, each task counts once, as the mean of
// its runs, and the bootstrap resamples its runs too (stats.ts).
import type { TaskRecord } from './aggregate.ts';
import { type BootstrapMethod, type BootstrapOptions, bootstrapMean, bootstrapMethod } from './stats.ts';

/** A rate in percent with its interval, rounded to two decimals as the report's other rates are. */
export interface RateInterval {
  rate: number;
  low: number;
  high: number;
  /** Tasks it is over (each task once, whatever its runs). */
  tasks: number;
}

export interface RateIntervals {
  method: BootstrapMethod;
  total: RateInterval;
  byDomain: Record<string, RateInterval>;
}

/** One key per task (and agent, in a report holding several agents' runs): the runs of a task share it. */
export function taskKey(record: Pick<TaskRecord, 'agent' | 'domain' | 'id'>): string {
  return `${record.agent ?? ''}\u0000${record.domain}\u0000${record.id}`;
}

/** A record's value for the rates: its raw score, 0 when it has none (broke, skipped) and for GUI-OS's −1. */
export function scoreValue(record: Pick<TaskRecord, 'score'>): number {
  return Math.max(0, record.score ?? 0);
}

/** The records grouped by task, in the order first seen. */
export function runsByTask<T extends Pick<TaskRecord, 'agent' | 'domain' | 'id'>>(records: readonly T[]): T[][] {
  const byTask = new Map<string, T[]>();
  for (const record of records) {
    const key = taskKey(record);
    const runs = byTask.get(key);
    if (runs) runs.push(record);
    else byTask.set(key, [record]);
  }
  return [...byTask.values()];
}

/** A bootstrap estimate (fractions) as a rate in percent over `tasks` tasks. */
export function asRate(estimate: { estimate: number; low: number; high: number }, tasks: number): RateInterval {
  const percent = (x: number) => Math.round(x * 10000) / 100;
  return { rate: percent(estimate.estimate), low: percent(estimate.low), high: percent(estimate.high), tasks };
}

/** The overall rate's interval in total and per domain; undefined for no records. */
export function rateIntervals(records: readonly TaskRecord[], options: BootstrapOptions = {}): RateIntervals | undefined {
  const tasks = runsByTask(records);
  if (!tasks.length) return undefined;
  const values = (group: TaskRecord[][]) => group.map((runs) => runs.map(scoreValue));
  const intervalOf = (group: TaskRecord[][]) => asRate(bootstrapMean(values(group), options)!, group.length);
  const domains = [...new Set(tasks.map((runs) => runs[0].domain))].sort((a, b) => a.localeCompare(b));
  return {
    method: bootstrapMethod(values(tasks), options),
    total: intervalOf(tasks),
    byDomain: Object.fromEntries(domains.map((domain) => [domain, intervalOf(tasks.filter((runs) => runs[0].domain === domain))])),
  };
}

/** `61.54% (95% interval 38.46–84.62%)`. */
function formatRateInterval(interval: RateInterval, level: number): string {
  return `${interval.rate.toFixed(2)}% (${Math.round(level * 100)}% interval ${interval.low.toFixed(2)}–${interval.high.toFixed(2)}%)`;
}

/** The console summary's line under the table. */
export function formatOverallInterval(intervals: RateIntervals): string {
  const { method, total } = intervals;
  return `Overall rate ${formatRateInterval(total, method.level)}: ${method.method} over ${total.tasks} tasks${method.over === 'tasks' ? '' : ' and their runs'}, ${method.resamples} resamples, seed ${method.seed}.`;
}
