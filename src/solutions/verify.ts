// Verification of solved tasks: every task that has a solution runs three ways in one vitest run (its node API, one
// inline project per agent, desktops in parallel up to maxWorkers):
// - `scripted` replays the solution and must score 1 (else the task or its solution has rotted);
// - `noop` answers DONE at once and must score 0 (else the evaluator passes an untouched desktop: a free pass);
// - `fail`, for infeasible tasks only, gives up at once and must score 1 (FAIL is the right answer there).
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { TestCase, TestModule } from 'vitest/node';
import { deskbench } from '../plugin/index.ts';
import { type TaskRecord, buildReport } from '../report/aggregate.ts';
import { writeHtmlReport } from '../report/html.ts';
import { DeskbenchReporter, recordOf } from '../report/reporter.ts';
import { finalizeRunningSummaries, writeAtomic } from '../report/results.ts';
import { loadTasks } from '../task/load.ts';
import type { Task } from '../task/types.ts';
import { loadSolutions, solutionFileFor } from './load.ts';

const VERIFY_AGENTS = ['scripted', 'noop', 'fail'] as const;
export type VerifyAgent = (typeof VERIFY_AGENTS)[number];

/** The score each agent must reach. */
const EXPECTED_SCORE: Record<VerifyAgent, number> = { scripted: 1, noop: 0, fail: 1 };

export interface VerifyOptions {
  /** Task files, folders, globs or index files, as for the plugin's `tasks`. */
  paths: string[];
  /** Folders of solution files. */
  solutions: string[];
  /** Where per-task results, report.json and index.html go. */
  resultsDir: string;
  /** Desktops at once (vitest's maxWorkers); vitest's default when absent. */
  maxWorkers?: number;
  /** Seconds per task run. */
  timeout: number;
  cwd?: string;
  /** Called after each finished task run with the runs done and planned per agent. */
  onProgress?: (progress: Record<VerifyAgent, { done: number; total: number }>) => void;
}

interface VerifyFailure {
  id: string;
  agent: VerifyAgent;
  /** The raw score, null when the run broke or was skipped before a score. */
  score: number | null;
  state: string | null;
  evalError: string | null;
  /** Why the run broke (setup, desktop, agent, timeout), when it did. */
  error: string | null;
}

interface VerifyRow {
  id: string;
  domain: string;
  scores: Partial<Record<VerifyAgent, number | null>>;
  verified: boolean;
}

export interface VerificationSummary {
  /** Tasks in the paths (valid task files). */
  tasks: number;
  /** Tasks with a solution (their own or a shipped one). */
  solved: number;
  /** Solved tasks whose every run scored as expected. */
  verified: number;
  /** Tasks that score above 0 with the noop agent. */
  freePasses: string[];
  failures: VerifyFailure[];
  rows: VerifyRow[];
}

/**
 * The solved tasks under the paths, and the tasks the paths hold. Windows tasks are never solved here: the desktop is
 * Linux and the runner skips them (OSWorld's examples_windows reuses some Ubuntu task ids).
 */
function solvedTasks(paths: readonly string[], solutionFolders: readonly string[], cwd = process.cwd()): { tasks: Task[]; solved: Task[] } {
  const solutions = loadSolutions(solutionFolders.map((folder) => resolve(cwd, folder)));
  const { tasks } = loadTasks(paths, { cwd });
  return { tasks, solved: tasks.filter((task) => task.platform !== 'windows' && (task.solution || solutionFileFor(task, solutions))) };
}

/** Runs the verification and writes `report.json` (with a `verification` section) and the HTML report. */
export async function verify(options: VerifyOptions): Promise<VerificationSummary> {
  const cwd = options.cwd ?? process.cwd();
  const { tasks, solved } = solvedTasks(options.paths, options.solutions, cwd);
  const plan: Record<VerifyAgent, Task[]> = { scripted: solved, noop: solved, fail: solved.filter((task) => task.flags.infeasible) };
  const resultsDir = resolve(cwd, options.resultsDir);
  let records: TaskRecord[] = [];
  if (solved.length) records = await runAgents(plan, { ...options, cwd, resultsDir });
  const summary = judge(tasks.length, plan, records);
  mkdirSync(resultsDir, { recursive: true });
  const report = { ...buildReport(records), verification: summary };
  writeAtomic(join(resultsDir, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
  writeHtmlReport(report, resultsDir);
  return summary;
}

/**
 * Replaces the plugin's reporter (the plugin adds none when one is there): reports progress, and at the end collects
 * one record per run, tagged with its agent (the project's name), for verify() to write one report over the three
 * agents. As the plugin's reporter does, it first finalises the summaries of tasks whose worker died.
 */
class VerifyReporter extends DeskbenchReporter {
  records: TaskRecord[] = [];
  private readonly progress: Record<VerifyAgent, { done: number; total: number }>;
  private readonly onProgress?: VerifyOptions['onProgress'];
  constructor(resultsDir: string, progress: Record<VerifyAgent, { done: number; total: number }>, onProgress?: VerifyOptions['onProgress']) {
    super({ resultsDir, print: false });
    this.progress = progress;
    this.onProgress = onProgress;
  }
  onTestCaseResult(test: TestCase): void {
    const counter = this.progress[test.project.name as VerifyAgent];
    if (!counter) return;
    counter.done++;
    this.onProgress?.(this.progress);
  }
  override onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const runId = process.env.DESKBENCH_RUN_ID;
    const ended = runId ? finalizeRunningSummaries(this.resultsDir, runId, 'the vitest worker running this task ended before the task did (killed or crashed)') : [];
    this.records = testModules.flatMap((module) =>
      [...module.children.allTests()].flatMap((test) => {
        const agent = test.project.name;
        const endedById = new Map(ended.filter((summary) => summary.results.agent === agent).map((summary) => [`${summary.tool}/${summary.uid}`, summary]));
        const record = recordOf(test, endedById);
        return record ? [{ ...record, agent, tags: [...record.tags, `agent:${agent}`] }] : [];
      }),
    );
  }
}

async function runAgents(plan: Record<VerifyAgent, Task[]>, options: VerifyOptions & { cwd: string; resultsDir: string }): Promise<TaskRecord[]> {
  // The agent of each run is the project's: an inherited override would replace all three.
  delete process.env.DESKBENCH_AGENT;
  const { createVitest } = await import('vitest/node');
  const agents = VERIFY_AGENTS.filter((agent) => plan[agent].length);
  const progress = Object.fromEntries(agents.map((agent) => [agent, { done: 0, total: plan[agent].length }])) as Record<VerifyAgent, { done: number; total: number }>;
  const projects = agents.map((agent) => ({
    plugins: [
      deskbench({
        tasks: plan[agent].map((task) => task.file),
        solutions: options.solutions.map((folder) => resolve(options.cwd, folder)),
        agent,
        resultsDir: options.resultsDir,
        timeout: options.timeout,
      }),
    ],
    // Only the task files the plugin adds: with no include of its own, vitest's default would take the folder's tests too.
    test: { name: agent, root: options.cwd, include: [], hookTimeout: 300_000 },
  }));
  const reporter = new VerifyReporter(options.resultsDir, progress, options.onProgress);
  const vitest = await createVitest({
    config: false,
    root: options.cwd,
    watch: false,
    reporters: [reporter],
    ...(options.maxWorkers ? { maxWorkers: options.maxWorkers } : {}),
    projects,
  });
  try {
    const { unhandledErrors } = await vitest.start();
    if (unhandledErrors.length) {
      throw new Error(`the verification run had ${unhandledErrors.length} unhandled error(s): ${unhandledErrors.map((e) => (e as Error)?.message ?? String(e)).join('; ')}`);
    }
    return reporter.records;
  } finally {
    await vitest.close();
  }
}

/** Compares every planned run with its expected score. A planned run without a record (it never ran) fails. */
export function judge(taskCount: number, plan: Record<VerifyAgent, readonly Task[]>, records: readonly TaskRecord[]): VerificationSummary {
  // Keyed by domain too: OSWorld reuses a few ids across folders.
  const recordOfRun = new Map(records.map((record) => [`${record.agent}|${record.domain}|${record.id}`, record]));
  const failures: VerifyFailure[] = [];
  const rows = new Map<string, VerifyRow>();
  for (const agent of VERIFY_AGENTS) {
    for (const task of plan[agent]) {
      const row = rows.get(task.file) ?? { id: task.id, domain: task.domain, scores: {}, verified: true };
      rows.set(task.file, row);
      const record = recordOfRun.get(`${agent}|${task.domain}|${task.id}`);
      const score = record?.score ?? null;
      row.scores[agent] = score;
      if (score === EXPECTED_SCORE[agent]) continue;
      row.verified = false;
      failures.push({
        id: task.id,
        agent,
        score,
        state: record?.state ?? null,
        evalError: record?.evalError ?? null,
        error: record ? record.error : 'the run did not take place (filtered out or vitest stopped early)',
      });
    }
  }
  const all = [...rows.values()];
  return {
    tasks: taskCount,
    solved: plan.scripted.length,
    verified: all.filter((row) => row.verified).length,
    freePasses: failures.filter((f) => f.agent === 'noop' && (f.score ?? 0) > 0).map((f) => f.id),
    failures,
    rows: all,
  };
}

/** The console table: one row per solved task, then failures, then the count line. */
export function formatVerification(summary: VerificationSummary): string {
  const header = ['task', 'domain', ...VERIFY_AGENTS, 'verified'];
  const cell = (score: number | null | undefined) => (score === undefined ? '' : score === null ? 'error' : String(score));
  const rows = summary.rows.map((row) => [row.id, row.domain, ...VERIFY_AGENTS.map((agent) => cell(row.scores[agent])), row.verified ? 'yes' : 'NO']);
  const widths = header.map((_, i) => Math.max(...[header, ...rows].map((cells) => cells[i].length)));
  const table = [header, ...rows].map((cells) => cells.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd());
  const failures = summary.failures.map((f) => {
    const why = (f.error ?? (f.evalError ? `eval_error: ${f.evalError}` : `state ${f.state}`)).split('\n')[0];
    const kind = f.agent === 'noop' && (f.score ?? 0) > 0 ? 'free pass: ' : '';
    return `FAIL ${f.id} with ${f.agent}: ${kind}score ${f.score ?? '–'}, expected ${EXPECTED_SCORE[f.agent]} (${why})`;
  });
  return [
    ...(rows.length ? [...table, ''] : []),
    ...(failures.length ? [...failures, ''] : []),
    `verified ${summary.verified} of ${summary.solved} solved (${summary.tasks} tasks in the paths)`,
  ].join('\n');
}
