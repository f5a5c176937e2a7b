// Runs inside vitest workers: the generated test module of a task file declares its tests with literal names and
// tags (vitest's `list` reads them without running anything) and hands the rest to this module, by the task file's
// path: taskOptions (timeout, meta) and runTask, the body. The body runs the task, records score, state and
// eval_error in the test's meta (reporters and the json reporter carry them), attaches the final screenshot, and gives
// the verdict: pass when the score reaches the pass threshold. The rest comes from the run's payload
// (src/contract/payload.ts).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { type TestContext, inject, recordArtifact } from 'vitest';
import { agentIdentity } from '../agent/identity.ts';
import { PAYLOAD_KEY, type WorkerPayload } from '../contract/payload.ts';
import { PROGRESS_ARTIFACT, type TaskProgress } from '../contract/progress.ts';
import type { TaskTestMeta } from '../contract/task-test.ts';
import type { DesktopSpec } from '../desktop/providers/index.ts';
import { redact, secretValues } from '../shared/redact.ts';
import { readSolutionFile } from '../solutions/load.ts';
import { readTaskFile } from '../adapters/load.ts';
import { tagsOf } from '../task/tags.ts';
import type { Task } from '../task/types.ts';
import { type ImportModule, agentSource, loadTaskAgent } from './agent.ts';
import { runTask as runTaskInDesktop, runTaskOptions } from './run-task.ts';
import { verdictLines } from './verdict-message.ts';
import { AgentError, DeskbenchError, type ErrorCode, InternalError, MalformedInputError } from '../errors.ts';

/**
 * vitest's test timeout is the task's plus this: deskbench ends a task at its own timeout (TIMED_OUT, with its summary
 * and its desktop removed), and vitest's would cut that short.
 */
const TEST_TIMEOUT_GRACE_MS = 30_000;

/** What declaring a task file's tests takes besides its name and tags: the timeout, and the meta reporters read. */
export function taskOptions(file: string, repeat?: number): { timeout: number; meta: { deskbench: TaskTestMeta } } {
  const payload = payloadOf();
  const { task, identity } = taskOf(file, payload);
  const meta: TaskTestMeta = { id: task.id, domain: task.domain, format: task.format, tags: tagsOf(task), ...(repeat ? { repeat } : {}), ...identity };
  return { timeout: payload.run.timeout * 1000 + TEST_TIMEOUT_GRACE_MS, meta: { deskbench: meta } };
}

/** The body of a task test: run i of the task file (`repeat`, with the repeats option). */
export function runTask(file: string, context: TestContext, importModule: ImportModule, repeat?: number): Promise<void> {
  const payload = payloadOf();
  return runTaskInTest(taskOf(file, payload).task, payload, context, importModule, repeat);
}

/** A task's test fails: the task ended in an error state (the message starts with it), or scored below the pass threshold. */
class TaskFailedError extends DeskbenchError {
  override readonly code: ErrorCode = 'DESKBENCH_TASK_FAILED';
}

function payloadOf(): WorkerPayload {
  const payload = inject(PAYLOAD_KEY);
  if (!payload) throw new InternalError('deskbench: the plugin did not provide this worker with its payload (vitest inject("deskbench:payload") is empty)');
  return payload;
}

/** The task of a test module, read once: the file itself, with the shipped solution the main process chose. */
const tasks = new Map<string, { task: Task; identity: ReturnType<typeof taskFileIdentity> }>();
function taskOf(file: string, payload: WorkerPayload): { task: Task; identity: ReturnType<typeof taskFileIdentity> } {
  let found = tasks.get(file);
  if (!found) {
    found = { task: withShippedSolution(readTask(file), payload.solutions[file]), identity: taskFileIdentity(file) };
    tasks.set(file, found);
  }
  return found;
}

function readTask(file: string): Task {
  const parsed = readTaskFile(file, { explicit: true });
  if (parsed.kind === 'task') return parsed.task;
  // Valid when the plugin selected it: it changed since.
  throw parsed.kind === 'error' ? parsed.error : new MalformedInputError(`${file} is no longer a task file`);
}

/** The solution the main process chose for the task (src/solutions/load.ts withSolution): a file, or none at all. */
function withShippedSolution(task: Task, solution: string | null | undefined): Task {
  if (solution === undefined) return task;
  const entry = solution === null ? undefined : readSolutionFile(solution);
  return { ...task, solution: entry?.kind === 'solution' ? entry.solution : undefined };
}

/** The task file (relative to the folder vitest runs in) and its sha256, for the run record and deskbench compare. */
function taskFileIdentity(file: string): { taskFile?: string; taskSha256?: string } {
  try {
    return { taskFile: relative(process.cwd(), file).split('\\').join('/'), taskSha256: createHash('sha256').update(readFileSync(file)).digest('hex') };
  } catch {
    return {}; // read a moment ago; if it is gone now, the test says so when it runs
  }
}

async function runTaskInTest(task: Task, payload: WorkerPayload, context: TestContext, importModule: ImportModule, repeat?: number): Promise<void> {
  const meta = context.task.meta as { deskbench?: TaskTestMeta };
  const { run, runId } = payload;
  const secrets = secretValues({ agentOptions: payload.agentOptions, desktop: run.desktop });
  // The run's id labels what its provider starts; with the run's warm desktops (node/plugin/global-setup.ts, when its
  // provider serves them) the task takes one there instead of starting its own.
  const desktop: DesktopSpec = { ...run.desktop, runId, ...(payload.pool ? { pool: payload.pool } : {}) };
  const agent = await loadTaskAgent(payload.agent, payload.agentOptions, importModule).catch((error: Error) => {
    // A factory may fail quoting its options (an API key): masked, and without the original as cause (vitest prints it).
    throw new AgentError(redact(`could not load the agent: ${error.message ?? error}`, secrets));
  });
  const identity = redact(await agentIdentity(agent, agentSource(payload.agent), process.cwd()), secrets);
  // Where the task is goes to the reporters as vitest test artifacts, in order; all are recorded before the verdict.
  let reported = Promise.resolve();
  const onProgress = (progress: TaskProgress) => {
    reported = reported.then(() => recordArtifact(context.task, { type: PROGRESS_ARTIFACT, progress })).then(
      () => {},
      () => {}, // a progress line lost is no reason to fail the task
    );
  };
  // Each run of a repeated task keeps a results folder of its own, each in OSWorld's layout.
  const resultsDir = repeat ? join(run.resultsDir, `run-${repeat}`) : run.resultsDir;
  const outcome = await runTaskInDesktop(task, { ...runTaskOptions(run, agent, context.signal), desktop, secrets, runId, resultsDir, onProgress });
  await reported;
  meta.deskbench = {
    ...(meta.deskbench as TaskTestMeta),
    score: outcome.score,
    passed: outcome.passed,
    state: outcome.state,
    evalError: outcome.evalError ?? null,
    error: outcome.resumed ? null : (outcome.error ?? null),
    resumed: outcome.resumed,
    steps: outcome.steps,
    // Relative to the results folder, so a report merged from shards on other machines still finds the files.
    resultDir: relative(run.resultsDir, outcome.resultDir).split(sep).join('/'),
    durationMs: outcome.durationMs,
    ...(outcome.desktop ? { desktop: outcome.desktop } : {}),
    ...(outcome.infraError ? { infraError: outcome.infraError } : {}),
    agentIdentity: identity,
  };
  if (outcome.finalScreenshot) {
    await context.annotate('final screen', 'screenshot', { contentType: 'image/png', path: join(outcome.resultDir, 'final.png') });
  }
  // One annotation per fact: vitest's JUnit reporter writes each as a <property name=type value=message>, for every
  // task, passed or not.
  for (const [type, value] of [['deskbench.score', outcome.score], ['deskbench.state', outcome.state], ['deskbench.steps', outcome.steps], ['deskbench.results', outcome.resultDir]] as const) {
    await context.annotate(String(value), type);
  }
  // The infrastructure's failure, not the agent's: JUnit carries it as a property of its own.
  if (outcome.infraError) await context.annotate(outcome.infraError, 'deskbench.infrastructure_error');
  if (outcome.status === 'skipped') {
    context.skip(outcome.error ?? 'skipped');
    return;
  }
  if (outcome.status === 'error') {
    const infrastructure = outcome.infraError ? ` (infrastructure error ${outcome.infraError}, not the agent's)` : '';
    throw new TaskFailedError(`${outcome.state}${infrastructure}: ${outcome.error}\n(results: ${outcome.resultDir})`);
  }
  if (!outcome.passed) {
    const verdict = (await verdictLines(outcome.details)).map((line) => `\n${line}`).join('');
    const because = outcome.evalError ? `\neval_error: ${outcome.evalError}` : '';
    const message = `score ${outcome.score} is below the pass threshold ${run.passThreshold} (agent ended with state ${outcome.state} after ${outcome.steps} steps)${verdict}${because}\n(results: ${outcome.resultDir})`;
    throw new TaskFailedError(redact(message, secrets));
  }
}

