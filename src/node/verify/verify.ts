// Verification of solved tasks: every task that has a solution runs several ways in one vitest run (its node API, one
// inline project per run kind, desktops in parallel up to maxWorkers), each `repeats` times:
// - `scripted` replays the solution and must score 1 (else the task or its solution has rotted); a task's second
//   solutions (`<id>.<variant>.json`, such as gui) each run as `scripted.<variant>` and must score 1 too;
// - `noop` answers DONE at once and must score 0 (else the evaluator passes an untouched desktop: a free pass);
// - `fail`, for infeasible tasks only, gives up at once and must score 1 (FAIL is the right answer there).
// A task whose runs of one kind score as expected in some repeats and not in others is flaky, and not verified.
// Before any desktop starts, selectForVerify (select.ts) finds the errors that fail verify on their own.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { TestCase, TestModule } from 'vitest/node';
import { desktopImage } from '../../desktop/image.ts';
import { deskbench } from '../plugin/index.ts';
import { type TaskRecord, buildReport } from '../report/aggregate.ts';
import { writeHtmlReport } from '../report/html.ts';
import { DeskbenchReporter, WORKER_ENDED, recordOf } from '../report/reporter.ts';
import { writeAtomic } from '../../shared/write-atomic.ts';
import { finalizeRunningSummaries } from '../report/finalize-running.ts';
import { MissingTaskPathError, type TaskFileError } from '../../task/errors.ts';
import type { Task } from '../../task/types.ts';
import { verifyEnvironment } from './environment.ts';
import type { RunStats, VerificationSummary, VerifyAgent, VerifyError, VerifyFailure, VerifyRow } from '../../contract/verification.ts';
import { type Solutions, solutionFileFor, variantsOf } from '../../solutions/load.ts';
import { selectForVerify } from './select.ts';
import { InternalError } from '../../errors.ts';

/** The score each agent must reach. */
const EXPECTED_SCORE: Record<VerifyAgent, number> = { scripted: 1, noop: 0, fail: 1 };

/** One kind of run (one vitest project): an agent and, for a second solution, its variant. Named `scripted.gui` then. */
interface VerifyRun {
  name: string;
  agent: VerifyAgent;
  variant?: string;
}

/** Which tasks each kind of run takes, in the table's column order. */
export type VerifyPlan = { run: VerifyRun; tasks: Task[] }[];

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
  /** Desktops started ahead of the tasks (the plugin's desktop.warm): default one per worker, 0 starts each when asked. */
  warm?: number;
  /** Runs of each task and agent (default 1): a task that passes in some and fails in others is flaky. */
  repeats?: number;
  /** Seconds after each replayed action (the plugin's pauseAfterAction; default its own): a replay's stand-in for the model's turn. */
  pauseAfterAction?: number;
  /** Steps a replay may take (the plugin's maxSteps; default its own, 15). */
  maxSteps?: number;
  /** deskbench's own folder (its git commit and scripts/build-image.sh are recorded); the environment is left out without it. */
  packageRoot?: string;
  cwd?: string;
  /** Called before any desktop starts when the selection has errors (they fail verify; a missing path stops it). */
  onErrors?: (errors: VerifyError[]) => void;
  /** Called after each finished task run with the runs done and planned per kind of run. */
  onProgress?: (progress: Record<string, { done: number; total: number }>) => void;
}

/** Which tasks each kind of run takes: the main solutions, each second solution, noop, and fail (infeasible tasks). */
export function planRuns(solved: readonly Task[], solutions: Solutions): VerifyPlan {
  const variants = [...new Set(solved.flatMap((task) => variantsOf(task, solutions)))].sort();
  const plan: VerifyPlan = [
    { run: { name: 'scripted', agent: 'scripted' }, tasks: solved.filter((task) => task.solution || solutionFileFor(task, solutions)) },
    ...variants.map((variant) => ({
      run: { name: `scripted.${variant}`, agent: 'scripted' as const, variant },
      tasks: solved.filter((task) => variantsOf(task, solutions).includes(variant)),
    })),
    { run: { name: 'noop', agent: 'noop' }, tasks: [...solved] },
    { run: { name: 'fail', agent: 'fail' }, tasks: solved.filter((task) => task.flags.infeasible) },
  ];
  return plan.filter((entry) => entry.tasks.length);
}

/**
 * Runs the verification and writes `report.json` (with a `verification` section) and the HTML report. A path that
 * names nothing stops it before any desktop starts; other errors (an invalid task file, a solution whose task is
 * absent) are reported and the rest still runs.
 */
export async function verify(options: VerifyOptions): Promise<VerificationSummary> {
  const started = Date.now();
  const cwd = options.cwd ?? process.cwd();
  const repeats = options.repeats ?? 1;
  const selection = selectForVerify(options.paths, options.solutions.map((folder) => resolve(cwd, folder)), cwd);
  const plan = planRuns(selection.solved, selection.solutions);
  const resultsDir = resolve(cwd, options.resultsDir);
  const environment = options.packageRoot ? await verifyEnvironment(options.packageRoot, desktopImage()) : undefined;
  const errors = selection.errors.map(errorOf);
  if (errors.length) options.onErrors?.(errors);
  const runnable = !selection.errors.some((error) => error instanceof MissingTaskPathError);
  let records: TaskRecord[] = [];
  if (runnable && plan.length) records = await runAgents(plan, { ...options, cwd, resultsDir, repeats });
  const summary: VerificationSummary = {
    ...judge(selection.tasks.length, runnable ? plan : [], records, repeats),
    // Solved counts what the paths hold, also when a path naming nothing kept verify from running them.
    solved: selection.solved.length,
    goldOnly: selection.goldOnly.map(({ task, mark }) => ({ id: task.id, domain: task.domain, reason: mark.reason })),
    errors,
    ...(environment ? { environment } : {}),
    durationSeconds: Math.round((Date.now() - started) / 100) / 10,
  };
  mkdirSync(resultsDir, { recursive: true });
  const report = { ...buildReport(records), verification: summary };
  writeAtomic(join(resultsDir, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
  writeHtmlReport(report, resultsDir);
  return summary;
}

function errorOf(error: TaskFileError): VerifyError {
  return { code: error.code, ...error.toJSON() };
}

/** A second solution's runs keep their results in a folder of their own: the agent (and so its folder) is `scripted` too. */
const variantDir = (variant: string) => `solution-${variant}`;

/**
 * Replaces the plugin's reporter (the plugin adds none when one is there): reports progress, and at the end collects
 * one record per run, tagged with its kind (the project's name), for verify() to write one report over all of them.
 * As the plugin's reporter does, it first finalises the summaries of tasks whose worker died.
 */
class VerifyReporter extends DeskbenchReporter {
  records: TaskRecord[] = [];
  private readonly progress: Record<string, { done: number; total: number }>;
  private readonly runs: Map<string, VerifyRun>;
  private readonly onProgress?: VerifyOptions['onProgress'];
  constructor(resultsDir: string, plan: VerifyPlan, repeats: number, onProgress?: VerifyOptions['onProgress']) {
    super({ resultsDir, print: false });
    this.progress = Object.fromEntries(plan.map(({ run, tasks }) => [run.name, { done: 0, total: tasks.length * repeats }]));
    this.runs = new Map(plan.map(({ run }) => [run.name, run]));
    this.onProgress = onProgress;
  }
  onTestCaseResult(test: TestCase): void {
    const counter = this.progress[test.project.name];
    if (!counter) return;
    counter.done++;
    this.onProgress?.(this.progress);
  }
  override onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const runId = this.runId();
    const ended = runId ? finalizeRunningSummaries(this.resultsDir, runId, WORKER_ENDED) : [];
    this.records = testModules.flatMap((module) =>
      [...module.children.allTests()].flatMap((test) => {
        const agent = test.project.name;
        const run = this.runs.get(agent);
        const endedById = new Map(ended.filter((summary) => summary.results.agent === run?.agent).map((summary) => [`${summary.tool}/${summary.uid}`, summary]));
        const record = recordOf(test, endedById);
        if (!record) return [];
        // The record's folder is relative to its project's results folder: make it relative to verify's.
        const resultDir = run?.variant && record.resultDir ? `${variantDir(run.variant)}/${record.resultDir}` : record.resultDir;
        return [{ ...record, resultDir, agent, tags: [...record.tags, `agent:${agent}`] }];
      }),
    );
  }
}

async function runAgents(plan: VerifyPlan, options: VerifyOptions & { cwd: string; resultsDir: string; repeats: number }): Promise<TaskRecord[]> {
  // The agent of each run is the project's: an inherited override would replace them all.
  delete process.env.DESKBENCH_AGENT;
  const { createVitest } = await import('vitest/node');
  const projects = plan.map(({ run, tasks }) => ({
    plugins: [
      deskbench({
        tasks: tasks.map((task) => task.file),
        solutions: options.solutions.map((folder) => resolve(options.cwd, folder)),
        ...(run.variant ? { solutionVariant: run.variant } : {}),
        agent: run.agent,
        resultsDir: run.variant ? join(options.resultsDir, variantDir(run.variant)) : options.resultsDir,
        timeout: options.timeout,
        repeats: options.repeats,
        ...(options.pauseAfterAction === undefined ? {} : { pauseAfterAction: options.pauseAfterAction }),
        ...(options.maxSteps === undefined ? {} : { maxSteps: options.maxSteps }),
        ...(options.warm === undefined ? {} : { desktop: { provider: 'docker' as const, warm: options.warm } }),
      }),
    ],
    // Only the task files the plugin adds: with no include of its own, vitest's default would take the folder's tests too.
    // With task files alone, a worker runs task after task without loading deskbench's modules again (isolate: false;
    // about half a CPU-second a task); each task still gets a fresh desktop, and the agent its reset().
    test: { name: run.name, root: options.cwd, include: [], hookTimeout: 300_000, isolate: false },
  }));
  const reporter = new VerifyReporter(options.resultsDir, plan, options.repeats, options.onProgress);
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
      throw new InternalError(`the verification run had ${unhandledErrors.length} unhandled error(s): ${unhandledErrors.map((e) => (e as Error)?.message ?? String(e)).join('; ')}`);
    }
    return reporter.records;
  } finally {
    await vitest.close();
  }
}

type Judged = Omit<VerificationSummary, 'goldOnly' | 'errors' | 'environment' | 'durationSeconds'>;

/**
 * Compares every planned run (each repeat) with its expected score. A planned run without a record (it never ran)
 * fails. Records carry their run's name as `agent`.
 */
export function judge(taskCount: number, plan: VerifyPlan, records: readonly TaskRecord[], repeats = 1): Judged {
  // Keyed by domain too: OSWorld reuses a few ids across folders.
  const recordsOfRun = Map.groupBy(records, (record) => `${record.agent}|${record.domain}|${record.id}`);
  const failures: VerifyFailure[] = [];
  const rows = new Map<string, VerifyRow>();
  for (const { run, tasks } of plan) {
    for (const task of tasks) {
      const row = rows.get(task.file) ?? { id: task.id, domain: task.domain, runs: {}, verified: true, flaky: false };
      rows.set(task.file, row);
      const ran = recordsOfRun.get(`${run.name}|${task.domain}|${task.id}`) ?? [];
      const scores: (number | null)[] = [];
      const seconds: number[] = [];
      for (let repeat = 1; repeat <= repeats; repeat++) {
        const record = ran.find((candidate) => (candidate.repeat ?? 1) === repeat);
        const score = record?.score ?? null;
        scores.push(score);
        if (record) seconds.push(record.durationMs / 1000);
        if (score === EXPECTED_SCORE[run.agent]) continue;
        failures.push({
          id: task.id,
          agent: run.agent,
          ...(run.variant ? { variant: run.variant } : {}),
          ...(repeats > 1 ? { repeat } : {}),
          score,
          state: record?.state ?? null,
          evalError: record?.evalError ?? null,
          error: record ? record.error : 'the run did not take place (filtered out or vitest stopped early)',
        });
      }
      const asExpected = scores.filter((score) => score === EXPECTED_SCORE[run.agent]).length;
      const round = (x: number) => Math.round(x * 10) / 10;
      row.runs[run.name] = { scores, asExpected, passRate: round((asExpected / repeats) * 100), meanSeconds: seconds.length ? round(seconds.reduce((a, b) => a + b) / seconds.length) : 0 };
      if (asExpected < repeats) row.verified = false;
      if (asExpected > 0 && asExpected < repeats) row.flaky = true;
    }
  }
  const all = [...rows.values()];
  const scripted = plan.filter(({ run }) => run.agent === 'scripted').flatMap(({ tasks }) => tasks);
  return {
    tasks: taskCount,
    solved: new Set(scripted.map((task) => task.file)).size,
    verified: all.filter((row) => row.verified).length,
    repeats,
    freePasses: [...new Set(failures.filter((f) => f.agent === 'noop' && (f.score ?? 0) > 0).map((f) => f.id))],
    flaky: all.filter((row) => row.flaky).map((row) => row.id),
    failures,
    rows: all,
  };
}

/** One error line: the code, the file (line and column), the field and the message. */
export function formatVerifyError(e: VerifyError): string {
  return `ERROR ${e.code} ${e.file}${e.line ? `:${e.line}:${e.column}` : ''}${e.path ? ` at ${e.path}` : ''}: ${e.message}`;
}

/** How a run kind is named in the table and in failures: the agent, and a second solution's variant. */
const runName = (failure: Pick<VerifyFailure, 'agent' | 'variant'>) => (failure.variant ? `${failure.agent}.${failure.variant}` : failure.agent);

/**
 * The console table: one row per solved task (with repeats, each cell counts the runs that scored as expected), then
 * errors, gold-only tasks and failures, then the count line.
 */
export function formatVerification(summary: Judged & Partial<Pick<VerificationSummary, 'goldOnly' | 'errors'>>): string {
  const runs = [...new Set(summary.rows.flatMap((row) => Object.keys(row.runs)))];
  const header = ['task', 'domain', ...runs, 'verified', 'time s'];
  const cell = (stats: RunStats | undefined) => {
    if (!stats) return '';
    if (summary.repeats > 1) return `${stats.asExpected}/${stats.scores.length}`;
    return stats.scores[0] === null ? 'error' : String(stats.scores[0]);
  };
  const solutionSeconds = (row: VerifyRow) => {
    const times = runs.filter((name) => name.startsWith('scripted') && row.runs[name]).map((name) => row.runs[name].meanSeconds);
    return times.length ? Math.max(...times).toFixed(0) : '';
  };
  const rows = summary.rows.map((row) => [row.id, row.domain, ...runs.map((name) => cell(row.runs[name])), row.verified ? 'yes' : row.flaky ? 'FLAKY' : 'NO', solutionSeconds(row)]);
  const widths = header.map((_, i) => Math.max(...[header, ...rows].map((cells) => cells[i].length)));
  const table = [header, ...rows].map((cells) => cells.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd());
  const errors = (summary.errors ?? []).map(formatVerifyError);
  const goldOnly = (summary.goldOnly ?? []).map((g) => `GOLD ONLY ${g.id} (${g.domain}), not counted: ${g.reason}`);
  const failures = summary.failures.map((f) => {
    const why = (f.error ?? (f.evalError ? `eval_error: ${f.evalError}` : `state ${f.state}`)).split('\n')[0];
    const kind = f.agent === 'noop' && (f.score ?? 0) > 0 ? 'free pass: ' : '';
    const which = f.repeat ? ` (run ${f.repeat} of ${summary.repeats})` : '';
    return `FAIL ${f.id} with ${runName(f)}${which}: ${kind}score ${f.score ?? '–'}, expected ${EXPECTED_SCORE[f.agent]} (${why})`;
  });
  const counts = [
    `verified ${summary.verified} of ${summary.solved} solved (${summary.tasks} tasks in the paths)`,
    ...(summary.repeats > 1 ? [`${summary.repeats} runs each; ${summary.flaky.length} flaky`] : []),
    ...(goldOnly.length ? [`${goldOnly.length} gold-only`] : []),
    ...(errors.length ? [`${errors.length} errors`] : []),
  ];
  return [
    ...(rows.length ? [...table, ''] : []),
    ...(errors.length ? [...errors, ''] : []),
    ...(goldOnly.length ? [...goldOnly, ''] : []),
    ...(failures.length ? [...failures, ''] : []),
    counts.join('; '),
  ].join('\n');
}
