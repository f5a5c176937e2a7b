// The types of a task's run: what runTask is given (RunTaskOptions) and what it returns (TaskOutcome), with the
// phases they are timed by. Their own module, so the phase, record and verdict modules need not import run-task.ts.
import type { Agent } from '../agent/types.ts';
import type { DesktopSpec } from '../desktop/providers/index.ts';
import type { DesktopEnvironment } from '../desktop/environment.ts';
import type { EvalDetails } from '../eval/engine.ts';
import type { TaskProgress } from '../contract/progress.ts';
import type { RunState } from '../contract/summary.ts';
import type { RunOptions } from '../contract/run-options.ts';

/** The phases of a run, in order: each is timed and named in messages. */
export type Phase = TaskProgress['phase'];

/**
 * What runTask needs: the run options (src/contract/run-options.ts, the plugin's per-task options with their defaults), the
 * agent, and what the caller adds per run. `desktop` may also name a warm pool (set by the plugin's runtime).
 */
export type RunTaskOptions = Omit<RunOptions, 'desktop' | 'timeout'> & {
  agent: Agent;
  desktop: DesktopSpec;
  /** Seconds for the whole task (desktop start, setup, agent, evaluation); past it the task ends TIMED_OUT. None: no limit. */
  timeout?: number;
  /** Literal secrets masked in everything stored and in the outcome's messages; default: the environment's. */
  secrets?: readonly string[];
  /** The run the task belongs to: its container's label and its summary's run_id (default: this process's). */
  runId?: string;
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
  /**
   * Set when the run broke for the infrastructure, not the agent: the error's code (DESKBENCH_FILE_CHANGED: a file
   * is not the locked one; DESKBENCH_DOWNLOAD_FAILED). Reports count these tasks apart from the agent's zeros.
   */
  infraError?: string;
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
