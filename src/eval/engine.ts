// The evaluation engine: OSWorld's DesktopEnv.evaluate() over the normalized evaluator tree, shared by every format.
// Postconfig runs first; infeasible tasks score 1 iff the agent's last action is FAIL; otherwise a final FAIL scores 0;
// then the metrics run, each `metric(result_getter(), expected_getter()?, options)`, joined by `and` (mean, early exit
// on 0) or `or` (max, early exit on 1). Unlike OSWorld, nothing escapes: a getter or metric that throws scores 0 and
// leaves an `evalError` naming it (as GUI-OS's orchestrator and OSWorld PR #565 do).
import type { Action } from '../task/actions.ts';
import { describeValue } from '../shared/describe-value.ts';
import { SkipTask } from '../errors.ts';
import type { ConjNode, EvalNode, GetterSpec, MetricNode, SetupStepSpec, Task } from '../task/types.ts';
import { registerBuiltins } from './builtins.ts';
import { getters, metrics } from './registry.ts';
import type { EvalEnv } from './registry.ts';
import { MetricResultError } from './errors.ts';

export interface EvalContext {
  /** The agent's last action; FAIL decides infeasible tasks and zeroes the others. */
  lastAction?: Action;
  /** Runs setup steps the way the runner does (used for the evaluator's postconfig). */
  runSetupSteps(steps: SetupStepSpec[]): Promise<void>;
}

/** What one getter produced: a local path, a value (shortened for the report), or why it gave nothing. */
export interface GetterReport {
  type: string;
  /** The getter's output: file paths as is, other values JSON-encoded and cut to 2,000 characters. */
  output?: unknown;
  /** Set when the getter found nothing (null / missing file): the metric then scores 0. */
  missing?: string;
  error?: string;
}

export interface MetricReport {
  func: string;
  /** The metric's raw score (0 when it or a getter failed); undefined when a conj exited before reaching it. */
  score?: number;
  result?: GetterReport;
  expected?: GetterReport;
  options: Record<string, unknown>;
  error?: string;
  /** Not evaluated: an `and` already had a 0 or an `or` already had a 1. */
  skipped?: boolean;
  ms?: number;
}

export interface EvalDetails {
  /** How the score was reached. */
  outcome: 'no-evaluator' | 'infeasible' | 'agent-failed' | 'metrics' | 'postconfig-failed';
  metrics: MetricReport[];
  postconfigError?: string;
}

export interface EvalResult {
  /** The raw score (floats stay floats); -1 for a task without evaluator, as GUI-OS scores it. */
  score: number;
  /** Every getter/metric error, joined; present only when something failed. */
  evalError?: string;
  details: EvalDetails;
}

/** True for OSWorld's FAIL, given as the string or as `{action_type: "FAIL"}`. */
export function isFailAction(action: Action | undefined): boolean {
  if (action === undefined) return false;
  if (typeof action === 'string') return action === 'FAIL';
  return action.action_type === 'FAIL';
}

export async function evaluate(task: Task, env: EvalEnv, context: EvalContext): Promise<EvalResult> {
  registerBuiltins();
  const evaluator = task.evaluator;
  if (!evaluator) return { score: -1, details: { outcome: 'no-evaluator', metrics: [] } };

  if (evaluator.postconfig.length) {
    try {
      await context.runSetupSteps(evaluator.postconfig);
    } catch (error) {
      if (error instanceof SkipTask || env.signal?.aborted) throw error;
      const message = `postconfig failed: ${errorText(error)}`;
      return { score: 0, evalError: message, details: { outcome: 'postconfig-failed', metrics: [], postconfigError: message } };
    }
  }

  const failed = isFailAction(context.lastAction);
  if (evaluator.root.kind === 'infeasible') {
    return { score: failed ? 1 : 0, details: { outcome: 'infeasible', metrics: [] } };
  }
  // OSWorld scores 0 when the agent gave up on a feasible task; a format may score the final state regardless.
  if (failed && !evaluator.scoreAfterFail) return { score: 0, details: { outcome: 'agent-failed', metrics: [] } };

  const reports: MetricReport[] = [];
  const score = await evaluateNode(evaluator.root, { task, env, failed, reports });
  const errors = reports.flatMap((r) => (r.error ? [r.error] : []));
  return {
    score,
    ...(errors.length ? { evalError: errors.join('; ') } : {}),
    details: { outcome: 'metrics', metrics: reports },
  };
}

interface Walk {
  task: Task;
  env: EvalEnv;
  failed: boolean;
  reports: MetricReport[];
}

async function evaluateNode(node: EvalNode, walk: Walk): Promise<number> {
  switch (node.kind) {
    case 'infeasible':
      return walk.failed ? 1 : 0;
    case 'metric':
      return evaluateMetric(node, walk);
    case 'conj':
      return evaluateConj(node, walk);
  }
}

async function evaluateConj(node: ConjNode, walk: Walk): Promise<number> {
  const scores: number[] = [];
  for (const [index, child] of node.children.entries()) {
    const score = await evaluateNode(child, walk);
    const exit = (node.conj === 'and' && score === 0) || (node.conj === 'or' && score === 1);
    if (exit) {
      for (const rest of node.children.slice(index + 1)) markSkipped(rest, walk.reports);
      return score;
    }
    scores.push(score);
  }
  if (!scores.length) return 0;
  return node.conj === 'and' ? scores.reduce((a, b) => a + b, 0) / scores.length : Math.max(...scores);
}

function markSkipped(node: EvalNode, reports: MetricReport[]): void {
  if (node.kind === 'metric') reports.push({ func: node.func, options: node.options, skipped: true });
  if (node.kind === 'conj') for (const child of node.children) markSkipped(child, reports);
}

async function evaluateMetric(node: MetricNode, walk: Walk): Promise<number> {
  const report: MetricReport = { func: node.func, options: node.options };
  walk.reports.push(report);
  const started = performance.now();
  try {
    report.score = await scoreMetric(node, walk, report);
  } catch (error) {
    if (walk.env.signal?.aborted) throw error;
    report.error ??= `metric ${node.func} failed: ${errorText(error)}`;
    report.score = 0;
  }
  report.ms = Math.round(performance.now() - started);
  return report.score;
}

/** Throws only for the metric itself; getter trouble is recorded in the report and scores 0. */
async function scoreMetric(node: MetricNode, walk: Walk, report: MetricReport): Promise<number> {
  const metric = metrics.get(node.func, walk.task.format);
  if (!metric) {
    report.error = `${metrics.unknownMessage(node.func)} (add it with defineMetric in a module of the plugin's \`extensions\`)`;
    return 0;
  }
  // The result getter runs first; a getter that finds nothing scores 0 and the next one is not run.
  const values: { result?: unknown; expected?: unknown } = {};
  for (const role of ['result', 'expected'] as const) {
    const spec = node[role];
    if (!spec) continue;
    const got = await runGetter(spec, role, node.func, walk);
    report[role] = got.report;
    if (!got.found) {
      if (got.report.error) report.error = got.report.error;
      return 0;
    }
    values[role] = got.value;
  }
  // Metrics may mutate what they get (OSWorld's do); the task keeps its own copy.
  return toScore(await metric(values.result, values.expected, structuredClone(node.options)));
}

type GetterOutcome = { found: true; value: unknown; report: GetterReport } | { found: false; report: GetterReport };

async function runGetter(spec: GetterSpec, role: 'result' | 'expected', func: string, walk: Walk): Promise<GetterOutcome> {
  const report: GetterReport = { type: spec.type };
  const getter = getters.get(spec.type);
  if (!getter) {
    report.error = `${getters.unknownMessage(spec.type)} (${role} of ${func}; add it with defineGetter in a module of the plugin's \`extensions\`)`;
    return { found: false, report };
  }
  try {
    // rule_relativeTime and friends rewrite their config, as OSWorld's do; keep the task's copy intact.
    const value = await getter(walk.env, structuredClone(spec));
    if (value === null || value === undefined) {
      report.missing = `getter ${spec.type} (${role} of ${func}) found nothing`;
      return { found: false, report };
    }
    report.output = reportable(value);
    return { found: true, value, report };
  } catch (error) {
    if (walk.env.signal?.aborted) throw error;
    if (isMissingFile(error)) {
      report.missing = `getter ${spec.type} (${role} of ${func}): ${errorText(error)}`;
      return { found: false, report };
    }
    report.error = `getter ${spec.type} (${role} of ${func}) failed: ${errorText(error)}`;
    return { found: false, report };
  }
}

/** OSWorld's FileNotFoundError: the file the agent should have produced is not there; a 0, not an error. */
function isMissingFile(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'ENOENT';
}

/**
 * Python metrics return ints, floats or bools, all within [0, 1] (the scores of OSWorld's metrics are fractions);
 * anything else is a broken metric: a 7 would count as seven solved tasks, a NaN would poison every mean.
 */
function toScore(value: unknown): number {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number' && value >= 0 && value <= 1) return value;
  // JSON shows NaN and Infinity as null: numbers are shown as JavaScript prints them.
  throw new MetricResultError(`returned ${typeof value === 'number' ? String(value) : describeValue(value)}, not a score between 0 and 1`);
}

function reportable(value: unknown): unknown {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    return typeof value === 'string' && value.length > 2000 ? `${value.slice(0, 2000)}…` : value;
  }
  if (Buffer.isBuffer(value)) return `<${value.length} bytes>`;
  try {
    const json = JSON.stringify(value);
    return json.length > 2000 ? `${json.slice(0, 2000)}…` : value;
  } catch {
    return String(value);
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
