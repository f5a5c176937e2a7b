// How a task's end becomes its verdict when it is not a score: a timeout or an abort, a signal, or an error, each named
// by the phase it came in. The record step (task-record.ts) masks the messages and writes the first verdict only.
import type { DesktopHandle } from '../desktop/providers/provider.ts';
import type { EvalDetails } from '../eval/engine.ts';
import { AgentError } from '../errors.ts';
import { infrastructureErrorCode } from '../files/errors.ts';
import type { RunState } from '../contract/summary.ts';
import type { Phase, TaskOutcome } from './types.ts';

/** A task's end before it is recorded; its messages are not masked yet. */
export interface Verdict {
  status: TaskOutcome['status'];
  score: number;
  state: RunState;
  evalError?: string;
  error?: string;
  /** The code of an infrastructure error that ended the task (a download that failed, a file that changed upstream). */
  infraError?: string;
  details?: EvalDetails;
}

/** How messages name each phase: "… stopped answering during the agent loop". */
const PHASE_NAMES: Record<Phase, string> = { desktop: 'starting the desktop', setup: 'setup', agent: 'the agent loop', evaluation: 'evaluation' };

/** Stopped by the task's timeout option (given as `timedOutAfter`, its seconds) or else by the caller's abort. */
export function abortVerdict(phase: Phase, timedOutAfter: number | undefined): Verdict {
  return timedOutAfter !== undefined
    ? { status: 'error', score: 0, state: 'TIMED_OUT', error: `timed out after ${timedOutAfter} s (the timeout option) during ${PHASE_NAMES[phase]}` }
    : { status: 'error', score: 0, state: 'ABORTED', error: `stopped (Ctrl-C or vitest's test timeout) during ${PHASE_NAMES[phase]}` };
}

/** Stopped by a signal to the process (Ctrl-C in a terminal reaches vitest's workers too). */
export function signalVerdict(name: NodeJS.Signals, phase: Phase): Verdict {
  return { status: 'error', score: 0, state: 'ABORTED', error: `stopped by ${name} (Ctrl-C) during ${PHASE_NAMES[phase]}` };
}

/**
 * A phase threw (`message` is the error's): a desktop that died or never started is the desktop's fault, whatever the
 * phase; otherwise an AgentError is the agent's, and any other error is its phase's (setup, evaluation, the desktop).
 */
export async function failureVerdict(error: unknown, message: string, phase: Phase, desktop: DesktopHandle | undefined): Promise<Verdict> {
  if (desktop && !(await desktop.isAlive())) {
    return { status: 'error', score: 0, state: 'DESKTOP_ERROR', error: `the desktop (${desktop.id}) stopped answering during ${PHASE_NAMES[phase]}: ${message}` };
  }
  if (!desktop) return { status: 'error', score: 0, state: 'DESKTOP_ERROR', error: `could not start the desktop: ${message}` };
  const state: RunState = error instanceof AgentError ? 'AGENT_ERROR' : phase === 'setup' ? 'SETUP_ERROR' : phase === 'evaluation' ? 'EVALUATION_ERROR' : 'DESKTOP_ERROR';
  const infraError = infrastructureErrorCode(error);
  return { status: 'error', score: 0, state, error: `${PHASE_NAMES[phase]} failed: ${message}`, ...(infraError ? { infraError } : {}) };
}
