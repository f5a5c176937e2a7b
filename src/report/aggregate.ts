// Success rates by domain and by tag, from one record per task test. Two rates, named plainly:
// - `osworldRate`: OSWorld's show_result.py — the sum of raw scores over the tasks that produced a result
//   (result.txt), so tasks that broke before a score are left out of the denominator;
// - `overallRate`: over every selected task — tasks that broke, and tasks skipped for a reason such as a missing
//   account, count 0; so do tasks that timed out (TIMED_OUT) or were aborted (ABORTED, a dead worker included).
// A GUI-OS task without evaluator scores -1; it counts 0 in both sums.

import type { VerificationSummary } from '../solutions/verify.ts';

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
  /** The agent of the run, when one report holds several agents' runs of a task (deskbench verify). */
  agent?: string;
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
  const sorted = [...records].sort((a, b) => a.domain.localeCompare(b.domain) || a.id.localeCompare(b.id));
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
  };
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
    '',
    lines[0],
    '',
    lines[1],
  ].join('\n');
}
