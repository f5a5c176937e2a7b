// summary.json, the one file of a task's results that both sides read: the worker writes it (worker/results.ts), the
// reporter reads it back to finalise tasks whose worker died (node/report/finalize-running.ts). The GUI-OS shape: the
// task's fields and `results { score, eval_error, state, … }`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TokenUsage } from '../agent/types.ts';
import type { DesktopEnvironment } from '../desktop/environment.ts';

/**
 * How a task ended (`RUNNING` while it runs). `success` means the agent said DONE (not that the task was solved — see the score), as GUI-OS
 * uses the word; `fail` means it said FAIL.
 */
export type RunState =
  | 'RUNNING'
  | 'success'
  | 'fail'
  | 'max_steps_error'
  | 'TIMED_OUT'
  | 'ABORTED'
  | 'SETUP_ERROR'
  | 'AGENT_ERROR'
  | 'DESKTOP_ERROR'
  | 'EVALUATION_ERROR'
  | 'SKIPPED';

export interface TaskSummary {
  uid: string;
  tool: string;
  format: string;
  prompt: string;
  steps: number | null;
  config: unknown;
  evaluation: unknown;
  tags: string[];
  counterpart: string | null;
  source: unknown;
  related_apps: string[];
  results: {
    score: number;
    passed: boolean;
    eval_error: string | null;
    error_log_path: string | null;
    output: string | null;
    state: RunState;
    messages: { role: string; content: string }[];
    total_tokens: TokenUsage;
    total_timing: { start_time: number; end_time: number; duration: number; phases_ms?: Record<string, number> };
    agent: string;
    steps_taken: number;
    /** The vitest run that wrote it (DESKBENCH_RUN_ID): the reporter finalises its RUNNING summaries. */
    run_id?: string | null;
    /** The desktop image and app versions the task ran on (null when its desktop never answered). */
    desktop?: DesktopEnvironment | null;
    details?: unknown;
    /** The code of the infrastructure error that ended the run (DESKBENCH_FILE_CHANGED, DESKBENCH_DOWNLOAD_FAILED). */
    infrastructure_error?: string;
  };
}

export function readSummary(dir: string): TaskSummary | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as TaskSummary;
  } catch {
    return undefined;
  }
}
