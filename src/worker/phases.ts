// The phases of one task, each a function with a typed result: start the desktop, run the setup, drive the agent (and
// record its steps), evaluate the final state. Each runs timed under its name (PhaseClock), so that a verdict for an
// error, an abort or a signal names the phase it came in; errors are thrown and judged by runTask (verdicts.ts).
import { runAgentLoop } from './agent-loop.ts';
import type { Action, AgentContext } from '../agent/types.ts';
import { startDesktopFor } from '../desktop/providers/index.ts';
import type { DesktopHandle } from '../desktop/providers/provider.ts';
import { settleDesktop } from '../desktop/settle.ts';
import { type EvalResult, evaluate } from '../eval/engine.ts';
import { SkipTask } from '../errors.ts';
import { type TaskProgress, shortAction } from '../contract/progress.ts';
import { redact } from '../shared/redact.ts';
import type { RunState } from '../contract/summary.ts';
import { taskUrls } from '../files/task-urls.ts';
import { runSetupSteps } from '../setup/run-steps.ts';
import type { Task } from '../task/types.ts';
import type { Phase, RunTaskOptions } from './types.ts';
import type { TaskEnv } from './task-env.ts';
import type { TaskRecord } from './task-record.ts';

/** Where a task stands: the phase running now, how long each phase took, and its progress told to the caller. */
export class PhaseClock {
  readonly started = Date.now();
  current: Phase = 'desktop';
  readonly timings: Partial<Record<Phase, number>> = {};
  private readonly listener: Pick<RunTaskOptions, 'onProgress'>;

  constructor(listener: Pick<RunTaskOptions, 'onProgress'>) {
    this.listener = listener;
  }

  progress(fields: Omit<TaskProgress, 'atMs'>): void {
    this.listener.onProgress?.({ ...fields, atMs: Date.now() - this.started });
  }

  async time<T>(phase: Phase, work: () => Promise<T>): Promise<T> {
    this.current = phase;
    this.progress({ phase });
    const start = performance.now();
    try {
      return await work();
    } finally {
      this.timings[phase] = Math.round(performance.now() - start);
    }
  }
}

/** What the phases of one task share. */
export interface TaskRun {
  task: Task;
  options: RunTaskOptions;
  clock: PhaseClock;
  record: TaskRecord;
  /** Masked in the progress told (the agent's actions may type a secret). */
  secrets: readonly string[];
}

export function startDesktopPhase(run: TaskRun): Promise<DesktopHandle> {
  return run.clock.time('desktop', () => startDesktopFor(run.options.desktop));
}

/** The task's `config` steps; a SkipTask from one of them skips the task, with its reason. */
export type SetupResult = { end: 'ready' } | { end: 'skipped'; reason: string };

export async function setupPhase(run: TaskRun, env: TaskEnv): Promise<SetupResult> {
  try {
    await run.clock.time('setup', async () => {
      // Every file the task downloads, the evaluator's gold files too, before the agent spends a step: a download that
      // fails or a file that changed upstream ends the task here as the infrastructure's SETUP_ERROR, not as a 0 at
      // evaluation that reads like the agent's.
      for (const url of taskUrls(run.task)) await env.fetchUrl(url);
      await runSetupSteps(run.task.setup, env, { phase: 'config' });
      await settleDesktop(env.desktop, { maxSeconds: run.options.settleAfterSetup }, env.signal);
    });
    return { end: 'ready' };
  } catch (error) {
    if (error instanceof SkipTask) return { end: 'skipped', reason: error.message };
    throw error;
  }
}

/** The agent loop's end: aborted, or the state the agent left it in (DONE, FAIL, out of steps) and its last action. */
export type AgentResult = { end: 'aborted' } | { end: 'finished'; state: RunState; lastAction?: Action };

/** Drives the agent; every step is written as it is taken, and the screen recorded when the record option asks. */
export async function agentPhase(run: TaskRun, env: TaskEnv): Promise<AgentResult> {
  const { task, options, clock, record } = run;
  const loop = await clock.time('agent', async () => {
    if (options.record) await env.desktop.startRecording();
    const context: AgentContext = {
      taskId: task.id,
      domain: task.domain,
      instruction: task.instruction,
      observationType: options.observationType,
      screen: env.screen,
      solution: task.solution,
      stepHint: task.stepHint,
      maxSteps: options.maxSteps,
      signal: env.signal,
      log: env.log,
    };
    return runAgentLoop(options.agent, context, env.desktop, {
      pauseAfterAction: options.pauseAfterAction,
      onStep: (step) => {
        if (record.settled) return;
        record.writeStep(step);
        clock.progress({ phase: 'agent', step: step.step, maxSteps: options.maxSteps, action: redact(shortAction(step.action), run.secrets) });
      },
    });
  });
  record.steps = loop.steps;
  record.responses = loop.responses;
  Object.assign(record.usage, loop.usage);
  record.finalScreenshot = loop.lastScreenshot;
  if (loop.end === 'aborted') return { end: 'aborted' };
  if (options.record) record.writeRecording(await env.desktop.endRecording());
  const state: RunState = loop.end === 'DONE' ? 'success' : loop.end === 'FAIL' ? 'fail' : 'max_steps_error';
  return { end: 'finished', state, lastAction: loop.lastAction };
}

/** Scores the final state (the evaluator runs the task's postconfig steps first) and takes its last screenshot. */
export async function evaluatePhase(run: TaskRun, env: TaskEnv, lastAction: Action | undefined): Promise<EvalResult> {
  const { task, clock, record } = run;
  const evaluation = await clock.time('evaluation', async () => {
    await settleDesktop(env.desktop, { maxSeconds: run.options.settleBeforeEvaluation }, env.signal);
    return evaluate(task, env, { lastAction, runSetupSteps: (postconfig) => runSetupSteps(postconfig, env, { phase: 'postconfig' }) });
  });
  record.finalScreenshot = await env.desktop.screenshot().catch(() => record.finalScreenshot);
  return evaluation;
}
