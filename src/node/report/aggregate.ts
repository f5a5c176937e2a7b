// Success rates by domain and by tag, from one record per task test. Two rates, named plainly:
// - `osworldRate`: OSWorld's show_result.py — the sum of raw scores over the tasks that produced a result
//   (result.txt), so tasks that broke before a score are left out of the denominator;
// - `overallRate`: over every selected task — tasks that broke, and tasks skipped for a reason such as a missing
//   account, count 0; so do tasks that timed out (TIMED_OUT) or were aborted (ABORTED, a dead worker included).
// A GUI-OS task without evaluator scores -1; it counts 0 in both sums.

import type { VerificationSummary } from '../../contract/verification.ts';
import type { TaskProgress } from '../../contract/progress.ts';
import type { DesktopEnvironment } from '../../desktop/environment.ts';
import { type RateIntervals, formatOverallInterval, rateIntervals } from './rate-intervals.ts';
import type { RunRecord } from './run-record.ts';

export interface TaskRecord {
  id: string;
  name: string;
  domain: string;
  format: string;
  tags: string[];
  /** vitest's verdict. */
  testState: 'passed' | 'failed' | 'skipped' | 'pending';
  /** The run's state (success, fail, max_steps_error, SETUP_ERROR, SKIPPED, …). */
  state: string;
  /** The raw score when the task was evaluated, null when it broke or was skipped. */
  score: number | null;
  steps: number;
  durationMs: number;
  evalError: string | null;
  error: string | null;
  /** The task's results folder relative to the results folder (absolute in reports of older versions). */
  resultDir: string | null;
  /** Where the task went, phase by phase and step by step (the last entry: where it ended). */
  progress?: TaskProgress[];
  /** The agent of the run, when one report holds several agents' runs of a task (deskbench verify). */
  agent?: string;
  /** Which run of the task (from 1), with the repeats option. */
  repeat?: number;
  /** The desktop image and app versions it ran on. */
  desktop?: DesktopEnvironment;
  /** Set when the run broke for the infrastructure, not the agent: the error's code (DESKBENCH_FILE_CHANGED, …). */
  infraError?: string;
  /** The task file, relative to the vitest root, and its sha256 when the run started (deskbench compare checks it). */
  taskFile?: string;
  taskSha256?: string;
}

/** One task over its runs (the repeats option). */
interface TaskRepeatStats {
  id: string;
  domain: string;
  agent?: string;
  runs: number;
  passed: number;
  /** passed / runs × 100. */
  passRate: number;
  /** Mean raw score over the runs that produced one (0 when none did). */
  meanScore: number;
  /** Passed in some runs and failed in others. */
  flaky: boolean;
}

export interface GroupStats {
  tasks: number;
  /** Tests that passed (score ≥ threshold). */
  passed: number;
  /** Tasks that produced a score. */
  scored: number;
  /** Mean raw score over scored tasks. */
  meanScore: number;
  /** Σ scores / scored tasks × 100 — what OSWorld's show_result.py prints. */
  osworldRate: number;
  /** Σ scores / all tasks × 100 — errors and skips count 0. */
  overallRate: number;
  meanSteps: number;
  /** Sum of task durations, seconds. */
  seconds: number;
}

export interface RunReport {
  generatedAt: string;
  total: GroupStats;
  byDomain: Record<string, GroupStats>;
  byTag: Record<string, GroupStats>;
  tasks: TaskRecord[];
  /** deskbench verify's outcome: solved, verified, failures, free passes. */
  verification?: VerificationSummary;
  /** The desktops the tasks ran on (usually one image): image, image id, app versions, and how many tasks each. */
  desktops?: (DesktopEnvironment & { tasks: number })[];
  /** With the repeats option: each task's pass rate over its runs, and how many tasks are flaky. */
  repeats?: { runsPerTask: number; flaky: number; tasks: TaskRepeatStats[] };
  /**
   * Tasks that ended with an infrastructure error (a download that failed, a file that changed upstream): among the
   * zeros of the overall rate, but not the agent's. Present when there are any.
   */
  infrastructure?: { errors: number; byCode: Record<string, number>; tasks: string[] };
  /** The overall rate with its 95% bootstrap interval, in total and per domain (rate-intervals.ts). */
  intervals?: RateIntervals;
  /** What produced the run, enough to rerun it (run-record.ts; `deskbench rerun`). */
  run?: RunRecord;
}

export function statsOf(records: readonly TaskRecord[]): GroupStats {
  const scored = records.filter((r) => r.score !== null);
  const sum = scored.reduce((total, r) => total + Math.max(0, r.score ?? 0), 0);
  const round = (x: number) => Math.round(x * 100) / 100;
  return {
    tasks: records.length,
    passed: records.filter((r) => r.testState === 'passed').length,
    scored: scored.length,
    meanScore: scored.length ? round(sum / scored.length) : 0,
    osworldRate: scored.length ? round((sum / scored.length) * 100) : 0,
    overallRate: records.length ? round((sum / records.length) * 100) : 0,
    meanSteps: records.length ? round(records.reduce((t, r) => t + r.steps, 0) / records.length) : 0,
    seconds: round(records.reduce((t, r) => t + r.durationMs, 0) / 1000),
  };
}

export function buildReport(records: readonly TaskRecord[], now = new Date()): RunReport {
  const sorted = [...records].sort((a, b) => a.domain.localeCompare(b.domain) || a.id.localeCompare(b.id) || (a.repeat ?? 0) - (b.repeat ?? 0));
  const group = (keyOf: (r: TaskRecord) => string[]) => {
    const groups = new Map<string, TaskRecord[]>();
    for (const record of sorted) for (const key of keyOf(record)) groups.set(key, [...(groups.get(key) ?? []), record]);
    return Object.fromEntries([...groups].sort(([a], [b]) => a.localeCompare(b)).map(([key, group]) => [key, statsOf(group)]));
  };
  return {
    generatedAt: now.toISOString(),
    total: statsOf(sorted),
    byDomain: group((r) => [r.domain]),
    byTag: group((r) => r.tags),
    tasks: sorted,
    ...(sorted.some((r) => r.desktop) ? { desktops: desktopsOf(sorted) } : {}),
    ...(sorted.some((r) => r.repeat !== undefined) ? { repeats: repeatStats(sorted) } : {}),
    ...(sorted.some((r) => r.infraError) ? { infrastructure: infrastructureErrors(sorted) } : {}),
    ...(sorted.length ? { intervals: rateIntervals(sorted) } : {}),
  };
}

/** The tasks an infrastructure error ended, by code. */
function infrastructureErrors(records: readonly TaskRecord[]): NonNullable<RunReport['infrastructure']> {
  const broken = records.filter((r) => r.infraError);
  const byCode: Record<string, number> = {};
  for (const r of broken) byCode[r.infraError!] = (byCode[r.infraError!] ?? 0) + 1;
  return { errors: broken.length, byCode, tasks: broken.map((r) => `${r.domain}/${r.id}${r.repeat ? ` [run ${r.repeat}]` : ''}`) };
}

/** Each distinct desktop (image id and versions) with the number of tasks that ran on it. */
function desktopsOf(records: readonly TaskRecord[]): NonNullable<RunReport['desktops']> {
  const byKey = new Map<string, DesktopEnvironment & { tasks: number }>();
  for (const { desktop } of records) {
    if (!desktop) continue;
    const key = JSON.stringify([desktop.image, desktop.imageId, desktop.versions]);
    const seen = byKey.get(key);
    if (seen) seen.tasks++;
    else byKey.set(key, { ...desktop, tasks: 1 });
  }
  return [...byKey.values()];
}

/** Per task (and agent), its runs: pass rate, mean score, flaky or not. */
function repeatStats(records: readonly TaskRecord[]): NonNullable<RunReport['repeats']> {
  const byTask = new Map<string, TaskRecord[]>();
  for (const record of records) {
    const key = `${record.agent ?? ''}\u0000${record.domain}\u0000${record.id}`;
    byTask.set(key, [...(byTask.get(key) ?? []), record]);
  }
  const round = (x: number) => Math.round(x * 100) / 100;
  const tasks = [...byTask.values()].map((runs): TaskRepeatStats => {
    const passed = runs.filter((r) => r.testState === 'passed').length;
    const failed = runs.filter((r) => r.testState === 'failed').length;
    const scored = runs.filter((r) => r.score !== null);
    return {
      id: runs[0].id,
      domain: runs[0].domain,
      ...(runs[0].agent ? { agent: runs[0].agent } : {}),
      runs: runs.length,
      passed,
      passRate: round((passed / runs.length) * 100),
      meanScore: scored.length ? round(scored.reduce((t, r) => t + Math.max(0, r.score ?? 0), 0) / scored.length) : 0,
      flaky: passed > 0 && failed > 0,
    };
  });
  return { runsPerTask: Math.max(...tasks.map((t) => t.runs)), flaky: tasks.filter((t) => t.flaky).length, tasks };
}

/** The console table: one row per domain, the total, then one row per tag. */
export function formatReport(report: RunReport): string {
  const header = ['', 'tasks', 'passed', 'mean score', 'OSWorld rate %', 'overall rate %', 'mean steps', 'time s'];
  const row = (name: string, s: GroupStats) => [name, s.tasks, s.passed, s.meanScore.toFixed(2), s.osworldRate.toFixed(2), s.overallRate.toFixed(2), s.meanSteps.toFixed(1), s.seconds.toFixed(1)].map(String);
  const sections: string[][][] = [
    [header, ...Object.entries(report.byDomain).map(([k, s]) => row(k, s)), row('all tasks', report.total)],
    [['tag', ...header.slice(1)], ...Object.entries(report.byTag).map(([k, s]) => row(k, s))],
  ];
  const widths = header.map((_, i) => Math.max(...sections.flat().map((cells) => cells[i].length)));
  const lines = sections.map((rows) => rows.map((cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ')).join('\n'));
  return [
    'deskbench results',
    'OSWorld rate: Σ scores over tasks with a result (show_result.py). Overall rate: Σ scores over all selected tasks; errors and skips count 0.',
    ...(report.repeats ? [`Each task ran ${report.repeats.runsPerTask} times: the rows above count runs.`] : []),
    ...(report.infrastructure ? [infrastructureLine(report.infrastructure)] : []),
    '',
    lines[0],
    ...(report.intervals ? [formatOverallInterval(report.intervals)] : []),
    '',
    lines[1],
    ...(report.repeats ? ['', formatRepeats(report.repeats)] : []),
  ].join('\n');
}

/** "2 tasks ended with an infrastructure error, not the agent's: …". */
export function infrastructureLine(infrastructure: NonNullable<RunReport['infrastructure']>): string {
  const codes = Object.entries(infrastructure.byCode).map(([code, count]) => `${count} ${code}`).join(', ');
  return `${infrastructure.errors} task${infrastructure.errors === 1 ? '' : 's'} ended with an infrastructure error (${codes}), not the agent's: counted 0 in the overall rate, left out of the OSWorld rate.`;
}

/** The repeats table: one row per task with its pass rate over the runs, flaky ones marked. */
function formatRepeats(repeats: NonNullable<RunReport['repeats']>): string {
  const rows = [
    ['task', 'runs', 'passed', 'pass rate %', 'mean score', ''],
    ...repeats.tasks.map((t) => [`${t.agent ? `${t.agent} ` : ''}${t.domain}/${t.id}`, String(t.runs), String(t.passed), t.passRate.toFixed(2), t.meanScore.toFixed(2), t.flaky ? 'flaky' : '']),
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((cells) => cells[i].length)));
  const table = rows.map((cells) => cells.map((c, i) => (i === 0 || i === 5 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd());
  const flaky = `${repeats.flaky} of ${repeats.tasks.length} tasks flaky (passed in some runs, failed in others)`;
  return [`Repeats: ${repeats.runsPerTask} runs per task; ${flaky}`, ...table].join('\n');
}
