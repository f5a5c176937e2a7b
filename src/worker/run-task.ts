// Runs one task end to end: a fresh desktop, the task's setup, the agent loop, the evaluation of the final state, and
// the results on disk. Never throws for a task's own failures: they come back as an outcome with a state and an
// error, so the caller (a vitest test) can fail that one test and the run goes on. The phases are phases.ts, what they
// run with task-env.ts, the verdicts of errors and aborts verdicts.ts, the results on disk task-record.ts; here they
// are put in order, and the timeout, the caller's abort and the process's signals are watched.
import { resolve } from 'node:path';
import { ABORTED, untilAborted } from '../abort.ts';
import type { DesktopHandle } from '../desktop/providers/provider.ts';
import { registerAdapters } from '../adapters/index.ts';
import { describeDesktop } from '../desktop/environment.ts';
import { currentRunId } from '../desktop/run-id.ts';
import { secretValues } from '../shared/redact.ts';
import { readSummary } from '../contract/summary.ts';
import { hasResult, taskResultDir } from './results.ts';
import type { Agent } from '../agent/types.ts';
import { type RunOptions, pickRunOptions } from '../contract/run-options.ts';
import type { Task } from '../task/types.ts';
import { PhaseClock, type TaskRun, agentPhase, evaluatePhase, setupPhase, startDesktopPhase } from './phases.ts';
import { createTaskEnv } from './task-env.ts';
import type { RunTaskOptions, TaskOutcome } from './types.ts';
import { TaskRecord, outcomeOf } from './task-record.ts';
import { type Verdict, abortVerdict, failureVerdict, signalVerdict } from './verdicts.ts';

export type { RunTaskOptions, TaskOutcome };

/** What runTask needs beyond the run options: the agent and the caller's abort (the test's signal). */
export function runTaskOptions(run: RunOptions, agent: Agent, signal?: AbortSignal): RunTaskOptions {
  return { ...pickRunOptions(run), agent, signal };
}

export async function runTask(task: Task, options: RunTaskOptions): Promise<TaskOutcome> {
  // The setup steps, getters and metrics of the task's format (loading a task file registers them too).
  registerAdapters();
  const clock = new PhaseClock(options);
  const log = options.log ?? (() => {});
  const resultDir = taskResultDir(resolve(options.resultsDir), { observationType: options.observationType, agent: options.agent.name }, task);
  const notRun = outcomeWithoutRun(task, options, resultDir, clock);
  if (notRun) return notRun;

  const secrets = options.secrets ?? secretValues({});
  const runId = options.runId ?? currentRunId();
  const record = new TaskRecord(task, { resultDir, clock, secrets, agentName: options.agent.name, passThreshold: options.passThreshold, runId });
  // deskbench ends the task itself at its timeout (vitest's own test timeout is set a little later, see worker/runtime.ts),
  // so a timed-out task still gets its state, its summary and its container removed at once.
  const deadline = options.timeout ? AbortSignal.timeout(options.timeout * 1000) : undefined;
  const signal = deadline && options.signal ? AbortSignal.any([deadline, options.signal]) : (deadline ?? options.signal);
  record.writeRunning();
  const run: WatchedRun = { task, options, clock, record, secrets, resultDir, deadline, signal, log };
  const desktop = new TaskDesktop(log);

  // Ctrl-C in a terminal signals vitest's workers too, and a worker dies of it before any abort reaches the task: the
  // verdict is written first (synchronously), then the signal takes its usual course.
  const onSignal = (name: NodeJS.Signals) => {
    record.finish(signalVerdict(name, clock.current));
    if (process.listenerCount(name) === 0) process.kill(process.pid, name);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    // The task ends when its work does, or at once when it is aborted: then its verdict is written and its desktop
    // removed here, while the abandoned work unwinds in the background against a desktop that is gone.
    const ended = await untilAborted(runPhases(run, desktop), signal);
    if (ended !== ABORTED) return ended;
    const verdict = record.finish(stoppedVerdict(run));
    await desktop.stop();
    return verdict;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/** The outcome of a task that is not run: written for Windows, or already run (resume). */
function outcomeWithoutRun(task: Task, options: RunTaskOptions, resultDir: string, clock: PhaseClock): TaskOutcome | undefined {
  if (task.platform === 'windows') {
    return outcomeOf({ status: 'skipped', score: 0, passed: false, state: 'SKIPPED', steps: 0, error: 'written for Windows (OSWorld examples_windows): the Linux desktop cannot run it' }, resultDir, clock);
  }
  if (options.resume && hasResult(resultDir)) {
    // The earlier result stands: its score and state are reported again, so a resumed run's report is complete.
    const previous = readSummary(resultDir)?.results;
    return outcomeOf(
      {
        status: 'skipped',
        resumed: true,
        score: previous?.score ?? 0,
        passed: previous?.passed ?? false,
        state: previous?.state ?? 'SKIPPED',
        steps: previous?.steps_taken ?? 0,
        error: `already has a result in ${resultDir} (resume)`,
      },
      resultDir,
      clock,
    );
  }
  return undefined;
}

/** A task's run as runTask watches it: with its results folder, its deadline and abort, its log. */
interface WatchedRun extends TaskRun {
  resultDir: string;
  /** Fires at the timeout option. */
  deadline?: AbortSignal;
  /** The deadline or the caller's abort, whichever comes first. */
  signal?: AbortSignal;
  log(message: string): void;
}

/** The task's desktop once started, stopped once, whoever asks first (the abort or the work's own end). */
class TaskDesktop {
  handle?: DesktopHandle;
  private stopping?: Promise<void>;
  private readonly log: (message: string) => void;

  constructor(log: (message: string) => void) {
    this.log = log;
  }

  async stop(): Promise<void> {
    if (!this.handle) return; // not started yet: the work stops it when the start completes
    const handle = this.handle;
    this.stopping ??= handle.stop().catch((error: Error) => this.log(`could not stop desktop ${handle.id}: ${error.message}`));
    await this.stopping;
  }
}

/** Stopped by the timeout option or by the caller's abort, during the phase running now. */
function stoppedVerdict(run: WatchedRun): Verdict {
  return abortVerdict(run.clock.current, run.deadline?.aborted ? run.options.timeout : undefined);
}

/** The phases in order, an error judged by the phase it came in; the desktop is stopped however they end. */
async function runPhases(run: WatchedRun, desktop: TaskDesktop): Promise<TaskOutcome> {
  try {
    desktop.handle = await startDesktopPhase(run);
    run.signal?.throwIfAborted(); // aborted while the container was starting: it goes right away (finally)
    return await runInDesktop(run, desktop.handle);
  } catch (error) {
    const message = (error as Error).message ?? String(error);
    if (run.signal?.aborted) return run.record.finish(stoppedVerdict(run));
    return run.record.finish(await failureVerdict(error, message, run.clock.current, desktop.handle));
  } finally {
    await desktop.stop();
  }
}

async function runInDesktop(run: WatchedRun, desktop: DesktopHandle): Promise<TaskOutcome> {
  const { task, options, record } = run;
  // Asked beside setup, not before it: the task's own time is not spent on describing its desktop.
  void describeDesktop(options.desktop, desktop.client).then((described) => {
    record.environment = described;
  });
  const env = await createTaskEnv(task, desktop, {
    resultDir: run.resultDir,
    cacheDir: options.cacheDir,
    files: options.files,
    filesLock: options.filesLock,
    filesMirror: options.filesMirror,
    settleAfterSetup: options.settleAfterSetup,
    signal: run.signal,
    log: run.log,
  });
  const setup = await setupPhase(run, env);
  if (setup.end === 'skipped') return record.finish({ status: 'skipped', score: 0, state: 'SKIPPED', error: setup.reason });
  const agent = await agentPhase(run, env);
  if (agent.end === 'aborted') return record.finish(stoppedVerdict(run));
  const evaluation = await evaluatePhase(run, env, agent.lastAction);
  return record.finish({ status: 'scored', score: evaluation.score, state: agent.state, evalError: evaluation.evalError, details: evaluation.details });
}
