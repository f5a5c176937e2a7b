// Where a running task is: its phase, the agent's step n of maxSteps and its last action. The worker records each
// change as a vitest test artifact (vitest's own channel from a test to the reporters, kept in blob reports too);
// the deskbench reporter prints it as one short line and the HTML report shows the task's timeline.
import type { TestArtifactBase } from 'vitest';

type TaskPhase = 'desktop' | 'setup' | 'agent' | 'evaluation';

export interface TaskProgress {
  phase: TaskPhase;
  /** The agent's turn (from 1) and the turns allowed, in the agent phase. */
  step?: number;
  maxSteps?: number;
  /** The last action, shortened (see shortAction). */
  action?: string;
  /** Milliseconds since the task started. */
  atMs: number;
}

export const PROGRESS_ARTIFACT = 'deskbench:progress';

export interface ProgressArtifact extends TestArtifactBase {
  type: typeof PROGRESS_ARTIFACT;
  progress: TaskProgress;
}

declare module 'vitest' {
  interface TestArtifactRegistry {
    'deskbench:progress': ProgressArtifact;
  }
}

export function isProgressArtifact(artifact: { type: string }): artifact is ProgressArtifact {
  return artifact.type === PROGRESS_ARTIFACT;
}

const PHASE_LABELS: Record<TaskPhase, string> = { desktop: 'starting the desktop', setup: 'setup', agent: 'agent', evaluation: 'evaluating' };

/** "agent step 3/15: click(512, 300)", "setup", "evaluating". */
export function formatProgress(progress: Omit<TaskProgress, 'atMs'>): string {
  if (progress.phase !== 'agent' || progress.step === undefined) return PHASE_LABELS[progress.phase];
  const action = progress.action ? `: ${progress.action}` : '';
  return `agent step ${progress.step}/${progress.maxSteps ?? '?'}${action}`;
}

/** An action in a few words: pyautogui code without its module prefix, a computer_13 object as TYPE {params}. */
export function shortAction(action: unknown, max = 60): string {
  let text: string;
  if (typeof action === 'string') text = action.replace(/pyautogui\./g, '');
  else if (action && typeof action === 'object') {
    const { action_type: type, ...parameters } = action as Record<string, unknown>;
    const rest = Object.keys(parameters).length ? ` ${JSON.stringify(parameters)}` : '';
    text = `${typeof type === 'string' ? type : 'action'}${rest}`;
  } else text = String(action);
  text = text.replace(/\s+/g, ' ').trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
