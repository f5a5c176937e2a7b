// Runs one task end to end: a fresh desktop, the task's setup, the agent loop, the evaluation of the final state, and
// the results on disk. Never throws for a task's own failures: they come back as an outcome with a state and an
// error, so the caller (a vitest test) can fail that one test and the run goes on.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ABORTED, untilAborted } from '../abort.ts';
import { runAgentLoop } from '../agent/loop.ts';
import type { Action, Agent, TokenUsage } from '../agent/types.ts';
import type { DesktopHandle, DesktopSpec } from '../desktop/provider.ts';
import { startDesktopFor } from '../desktop/provider.ts';
import { type DesktopEnvironment, describeDesktop } from '../desktop/environment.ts';
import { evaluate, type EvalDetails } from '../eval/engine.ts';
import type { EvalEnv } from '../eval/registry.ts';
import { type TaskProgress, shortAction } from '../report/progress.ts';
import { redact, secretValues } from '../report/redact.ts';
import { type RunState, TaskResultWriter, hasResult, readSummary, summaryOf, taskResultDir } from '../report/results.ts';
import { createFileResolver } from '../setup/downloads.ts';
import { AgentError, SkipTask } from '../errors.ts';
import type { SetupContext } from '../setup/registry.ts';
import { setupVars } from '../setup/parameters.ts';
import { runSetupSteps } from '../setup/run-steps.ts';
import type { Task } from '../task/types.ts';
import type { RunOptions } from './options.ts';

/**
 * What runTask needs: the run options (src/runner/options.ts, the plugin's per-task options with their defaults), the
 * agent, and what the caller adds per run. `desktop` may also name a warm pool (set by the plugin's runtime).
 */
export type RunTaskOptions = Omit<RunOptions, 'desktop' | 'timeout'> & {
  agent: Agent;
  desktop: DesktopSpec;
  /** Seconds for the whole task (desktop start, setup, agent, evaluation); past it the task ends TIMED_OUT. None: no limit. */
  timeout?: number;
  /** Literal secrets masked in everything stored and in the outcome's messages; default: the environment's. */
  secrets?: readonly string[];
  /** The caller's abort (vitest's: Ctrl-C); the task ends ABORTED. */
  signal?: AbortSignal;
  log?(message: string): void;
  /** Told when a phase starts and after each agent action: where the task is (the plugin reports it to vitest). */
  onProgress?(progress: TaskProgress): void;
};

export interface TaskOutcome {
  /** scored: evaluated (pass or fail by the score); skipped: not run, with a reason; error: broke before a score. */
  status: 'scored' | 'skipped' | 'error';
  /** Set when `resume` found an earlier result: score, passed and state are that result's. */
  resumed?: boolean;
  /** The raw score; 0 when the run broke; -1 when the task has no evaluator (GUI-OS). */
  score: number;
  passed: boolean;
  state: RunState;
  evalError?: string;
  /** What broke the run, or why it was skipped. */
  error?: string;
  resultDir: string;
  steps: number;
  finalScreenshot?: Buffer;
  details?: EvalDetails;
  durationMs: number;
  /** Milliseconds per phase: desktop start to ready, setup, agent loop, evaluation (for overhead benchmarks). */
  timings: Partial<Record<Phase, number>>;
  /** The image and app versions the task ran on (once its desktop answered). */
  desktop?: DesktopEnvironment;
}

type Phase = TaskProgress['phase'];

/** How messages name each phase: "… stopped answering during the agent loop". */
const PHASE_NAMES: Record<Phase, string> = { desktop: 'starting the desktop', setup: 'setup', agent: 'the agent loop', evaluation: 'evaluation' };

export async function runTask(task: Task, options: RunTaskOptions): Promise<TaskOutcome> {
  const started = Date.now();
  const log = options.log ?? (() => {});
  const resultDir = taskResultDir(resolve(options.resultsDir), { observationType: options.observationType, agent: options.agent.name }, task);
  const timings: Partial<Record<Phase, number>> = {};
  const progress = (fields: Omit<TaskProgress, 'atMs'>) => options.onProgress?.({ ...fields, atMs: Date.now() - started });
  /** The phase running now: error messages and states name it. */
  let phase = 'desktop' as Phase;
  const timed = async <T,>(next: Phase, work: () => Promise<T>): Promise<T> => {
    phase = next;
    progress({ phase: next });
    const start = performance.now();
    try {
      return await work();
    } finally {
      timings[next] = Math.round(performance.now() - start);
    }
  };
  const outcome = (fields: Omit<TaskOutcome, 'resultDir' | 'durationMs' | 'timings'>): TaskOutcome => ({ ...fields, resultDir, durationMs: Date.now() - started, timings });

  if (task.platform === 'windows') {
    return outcome({ status: 'skipped', score: 0, passed: false, state: 'SKIPPED', steps: 0, error: 'written for Windows (OSWorld examples_windows): the Linux desktop cannot run it' });
  }
  if (options.resume && hasResult(resultDir)) {
    // The earlier result stands: its score and state are reported again, so a resumed run's report is complete.
    const previous = readSummary(resultDir)?.results;
    return outcome({
      status: 'skipped',
      resumed: true,
      score: previous?.score ?? 0,
      passed: previous?.passed ?? false,
      state: previous?.state ?? 'SKIPPED',
      steps: previous?.steps_taken ?? 0,
      error: `already has a result in ${resultDir} (resume)`,
    });
  }

  const secrets = options.secrets ?? secretValues({});
  const writer = new TaskResultWriter(resultDir, secrets);
  const usage: TokenUsage = { input_tokens: 0, output_tokens: 0, total_tokens: 0 };
  let responses: string[] = [];
  let steps = 0;
  let desktop: DesktopHandle | undefined;
  let finalScreenshot: Buffer | undefined;
  let environment: DesktopEnvironment | undefined;
  // deskbench ends the task itself at its timeout (vitest's own test timeout is set a little later, see generate.ts),
  // so a timed-out task still gets its state, its summary and its container removed at once.
  const deadline = options.timeout ? AbortSignal.timeout(options.timeout * 1000) : undefined;
  const signal = deadline && options.signal ? AbortSignal.any([deadline, options.signal]) : (deadline ?? options.signal);
  /** The outcome, once decided: the first decision stands, and nothing more is written after it. */
  let settled: TaskOutcome | undefined;

  const summary = (result: { score: number; passed: boolean; state: RunState; evalError?: string; error?: string; details?: EvalDetails }) =>
    summaryOf(task, {
      score: result.score,
      passed: result.passed,
      eval_error: result.evalError ?? null,
      error_log_path: null,
      output: result.error ?? null,
      state: result.state,
      messages: responses.map((content) => ({ role: 'assistant', content })),
      total_tokens: usage,
      total_timing: { start_time: started / 1000, end_time: Date.now() / 1000, duration: Math.round((Date.now() - started) / 10) / 100, phases_ms: timings },
      agent: options.agent.name,
      steps_taken: steps,
      run_id: process.env.DESKBENCH_RUN_ID ?? null,
      desktop: environment ?? null,
      details: result.details,
    });
  // Until the task ends, summary.json says RUNNING: if the worker dies, the reporter turns it into ABORTED.
  writer.writeSummary(summary({ score: 0, passed: false, state: 'RUNNING' }));

  const finish = (unmasked: { status: TaskOutcome['status']; score: number; state: RunState; evalError?: string; error?: string; details?: EvalDetails }): TaskOutcome => {
    if (settled) return settled;
    // Model API errors may quote the key: the messages leave the runner masked (test errors, meta, reports).
    const result = { ...unmasked, error: redact(unmasked.error, secrets), evalError: redact(unmasked.evalError, secrets) };
    const passed = result.status === 'scored' && result.score >= options.passThreshold;
    writer.writeSummary(summary({ ...result, passed }));
    if (finalScreenshot) writer.writeFile('final.png', finalScreenshot);
    if (result.status === 'scored') writer.writeScore(result.score);
    else if (result.error) writer.writeError(result.error);
    settled = outcome({ ...result, passed, steps, finalScreenshot, desktop: environment });
    return settled;
  };

  const aborted = (): Parameters<typeof finish>[0] =>
    deadline?.aborted
      ? { status: 'error', score: 0, state: 'TIMED_OUT', error: `timed out after ${options.timeout} s (the timeout option) during ${PHASE_NAMES[phase]}` }
      : { status: 'error', score: 0, state: 'ABORTED', error: `stopped (Ctrl-C or vitest's test timeout) during ${PHASE_NAMES[phase]}` };

  /** Stops the desktop once, whoever asks first (the abort or the work's own end). */
  let stopping: Promise<void> | undefined;
  const stopDesktop = async () => {
    if (!desktop) return; // not started yet: the work stops it when the start completes
    const handle = desktop;
    stopping ??= handle.stop().catch((error: Error) => log(`could not stop desktop ${handle.id}: ${error.message}`));
    await stopping;
  };

  const run = async (): Promise<TaskOutcome> => {
    try {
      desktop = await timed('desktop', () => startDesktopFor(options.desktop));
      signal?.throwIfAborted(); // aborted while the container was starting: it goes right away (finally)
      return await runInDesktop(desktop);
    } catch (error) {
      const message = (error as Error).message ?? String(error);
      if (signal?.aborted) return finish(aborted());
      if (desktop && !(await desktop.isAlive())) {
        return finish({ status: 'error', score: 0, state: 'DESKTOP_ERROR', error: `the desktop (${desktop.id}) stopped answering during ${PHASE_NAMES[phase]}: ${message}` });
      }
      if (!desktop) return finish({ status: 'error', score: 0, state: 'DESKTOP_ERROR', error: `could not start the desktop: ${message}` });
      const errorState: RunState = error instanceof AgentError ? 'AGENT_ERROR' : phase === 'setup' ? 'SETUP_ERROR' : phase === 'evaluation' ? 'EVALUATION_ERROR' : 'DESKTOP_ERROR';
      return finish({ status: 'error', score: 0, state: errorState, error: `${PHASE_NAMES[phase]} failed: ${message}` });
    } finally {
      await stopDesktop();
    }
  };

  const runInDesktop = async (desktop: DesktopHandle): Promise<TaskOutcome> => {
    const client = desktop.client;
    // Asked beside setup, not before it: the task's own time is not spent on describing its desktop.
    void describeDesktop(options.desktop, client).then((described) => {
      environment = described;
    });
    const size = await client.screenSize();
    const cacheDir = join(resultDir, 'cache');
    mkdirSync(cacheDir, { recursive: true });
    const downloadCacheDir = resolve(options.cacheDir);
    const fetchUrl = createFileResolver({ cacheDir: downloadCacheDir, files: options.files, taskDir: task.dir, taskFile: task.file });
    const setupContext: SetupContext = {
      desktop: client,
      taskDir: task.dir,
      taskFile: task.file,
      cacheDir,
      fetchUrl,
      cdp: desktop.cdp,
      vars: setupVars({ password: 'password', screen: size }),
      signal,
      log,
    };

    try {
      await timed('setup', () => runSetupSteps(task.setup, setupContext, { phase: 'config' }));
    } catch (error) {
      if (error instanceof SkipTask) return finish({ status: 'skipped', score: 0, state: 'SKIPPED', error: error.message });
      throw error;
    }

    const loop = await timed('agent', async () => {
      if (options.record) await client.startRecording();
      const context = {
        taskId: task.id,
        domain: task.domain,
        instruction: task.instruction,
        observationType: options.observationType,
        screen: size,
        solution: task.solution,
        stepHint: task.stepHint,
        maxSteps: options.maxSteps,
        signal,
        log,
      };
      return runAgentLoop(options.agent, context, client, {
        pauseAfterAction: options.pauseAfterAction,
        onStep: (record) => {
          if (settled) return;
          steps = record.step;
          writer.writeStep(record);
          progress({ phase: 'agent', step: record.step, maxSteps: options.maxSteps, action: redact(shortAction(record.action), secrets) });
        },
      });
    });
    steps = loop.steps;
    responses = loop.responses;
    Object.assign(usage, loop.usage);
    finalScreenshot = loop.lastScreenshot;
    if (loop.end === 'aborted') return finish(aborted());
    if (options.record) writer.writeFile('recording.mp4', await client.endRecording());
    const state: RunState = loop.end === 'DONE' ? 'success' : loop.end === 'FAIL' ? 'fail' : 'max_steps_error';

    const env: EvalEnv = {
      desktop: client,
      taskDir: task.dir,
      taskFile: task.file,
      cacheDir,
      downloadCacheDir,
      fetchUrl,
      cdp: desktop.cdp,
      vlc: desktop.vlc,
      signal,
    };
    const evaluation = await timed('evaluation', () =>
      evaluate(task, env, {
        lastAction: loop.lastAction as Action | undefined,
        runSetupSteps: (postconfig) => runSetupSteps(postconfig, setupContext, { phase: 'postconfig' }),
      }),
    );
    finalScreenshot = await client.screenshot().catch(() => finalScreenshot);
    return finish({ status: 'scored', score: evaluation.score, state, evalError: evaluation.evalError, details: evaluation.details });
  };

  // Ctrl-C in a terminal signals vitest's workers too, and a worker dies of it before any abort reaches the task: the
  // verdict is written first (synchronously), then the signal takes its usual course.
  const onSignal = (name: NodeJS.Signals) => {
    finish({ status: 'error', score: 0, state: 'ABORTED', error: `stopped by ${name} (Ctrl-C) during ${PHASE_NAMES[phase]}` });
    if (process.listenerCount(name) === 0) process.kill(process.pid, name);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    // The task ends when its work does, or at once when it is aborted: then its verdict is written and its desktop
    // removed here, while the abandoned work unwinds in the background against a desktop that is gone.
    const ended = await untilAborted(run(), signal);
    if (ended !== ABORTED) return ended;
    const verdict = finish(aborted());
    await stopDesktop();
    return verdict;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
