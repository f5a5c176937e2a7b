// Errors of the setup phase: a step that failed (carrying its index, type and cause), a step given bad parameters, a
// step that could not do its work, and the steps that stand for an outside service deskbench cannot provide (they skip
// the task, see `needs`).
import { SkipTask, type SetupStep } from './registry.ts';
import { DeskbenchError, type ErrorCode } from '../errors.ts';

export type SetupPhase = 'config' | 'postconfig';

/** "Setup step 2 (download) failed: …" — OSWorld's message, plus the step's type. `cause` is the original error. */
export class SetupStepError extends DeskbenchError {
  override readonly code: ErrorCode = 'DESKBENCH_SETUP_STEP';
  readonly phase: SetupPhase;
  /** Index in the task's `config` (or `evaluator.postconfig`) list, from 0 as OSWorld counts. */
  readonly index: number;
  readonly type: string;

  constructor(phase: SetupPhase, index: number, type: string, detail: string, cause?: unknown) {
    super(`${phase === 'config' ? 'Setup' : 'Postconfig'} step ${index} (${type}) ${detail}`, { cause });
    this.phase = phase;
    this.index = index;
    this.type = type;
  }
}

/** A parameter that is missing or has the wrong shape: "download: parameters.files[0].url must be a string (got 3)". */
export class StepParameterError extends DeskbenchError {
  override readonly code: ErrorCode = 'DESKBENCH_STEP_PARAMETER';
}

/**
 * A step could not do its work: a command it ran on the desktop failed or did not finish, a file it needs is not there,
 * an app it drives (Chrome) did not answer. SetupStepError carries it as its cause.
 */
export class StepFailedError extends DeskbenchError {
  override readonly code: ErrorCode = 'DESKBENCH_STEP_FAILED';
}

// Steps that only make sense with an outside account or service. They throw SkipTask when run; the runner also looks
// them up before running anything, so a task that needs Snowflake is skipped before its files are copied.
const skipReasons = new WeakMap<SetupStep, string>();

/** A step that skips the task with "needs <what>"; replace it with `defineSetupStep(type, yourStep)` to run it. */
export function needs(what: string): SetupStep {
  const reason = `needs ${what}`;
  const step: SetupStep = async () => {
    throw new SkipTask(reason);
  };
  skipReasons.set(step, reason);
  return step;
}

/** The skip reason of a step made by `needs`, or undefined for a step that does real work. */
export function skipReasonOf(step: SetupStep): string | undefined {
  return skipReasons.get(step);
}
