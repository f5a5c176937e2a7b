// Replaying recorded trajectories: each becomes a second solution of its task (`<id>.<variant>.json`), written under
// the results folder, and `deskbench verify` runs them with a pause after each action and the noop agent beside them.
// One row per trajectory: its score here, noop's, and the score it had where it was recorded.
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { TaskFileError } from '../../task/errors.ts';
import type { VerificationSummary, VerifyError } from '../../contract/verification.ts';
import { verify } from '../verify/verify.ts';
import { type Trajectory, readTrajectory } from './trajectory.ts';

export interface ReplayOptions {
  /** trajectory.json / traj.jsonl files, or folders searched for them. */
  trajectories: string[];
  /** OSWorld's `evaluation_examples/examples` folder: `<domain>/<task id>.json`. */
  corpus: string;
  resultsDir: string;
  /** Seconds after each action: the model's turn the replay leaves out (default 3). */
  pause?: number;
  /** Steps a trajectory may take (default 100: OSWorld-Verified's runs allowed 100). */
  maxSteps?: number;
  maxWorkers?: number;
  /** Seconds per task run (default 1800: 100 steps with pauses). */
  timeout?: number;
  warm?: number;
  /** deskbench's own folder: the date, commit and image the figures come from are recorded (as verify's). */
  packageRoot?: string;
  onProgress?: (progress: Record<string, { done: number; total: number }>) => void;
}

export interface ReplayRow {
  file: string;
  taskId: string;
  domain: string;
  variant: string;
  steps: number;
  /** Where it was recorded. */
  recordedScore?: number;
  /** Here; null when the run broke before a score. */
  score: number | null;
  noopScore: number | null;
}

export interface ReplayReport {
  rows: ReplayRow[];
  /** Trajectory files that could not be read or whose task is not in the corpus. */
  errors: VerifyError[];
  verification: VerificationSummary;
}

/** The trajectory files under the paths: trajectory.json and traj.jsonl, in a stable order. */
export function findTrajectories(paths: readonly string[]): string[] {
  const found: string[] = [];
  const walk = (path: string) => {
    if (statSync(path).isDirectory()) {
      for (const entry of readdirSync(path).sort()) walk(join(path, entry));
    } else if (/(^|\/)(trajectory\.json|traj\.jsonl)$/.test(path)) found.push(path);
  };
  for (const path of paths) {
    if (!existsSync(path)) throw new TaskFileError(path, '', 'no such file or folder of trajectories');
    walk(resolve(path));
  }
  return found;
}

export async function replay(options: ReplayOptions): Promise<ReplayReport> {
  const errors: VerifyError[] = [];
  const trajectories: Trajectory[] = [];
  for (const file of findTrajectories(options.trajectories)) {
    try {
      const trajectory = readTrajectory(file);
      const taskFile = join(options.corpus, trajectory.domain, `${trajectory.taskId}.json`);
      if (!existsSync(taskFile)) throw new TaskFileError(file, 'taskId', `its task is not in the corpus (no ${taskFile})`);
      trajectories.push(trajectory);
    } catch (error) {
      if (!(error instanceof TaskFileError)) throw error;
      errors.push({ code: error.code, ...error.toJSON() });
    }
  }
  // One solution file per trajectory; a second trajectory of the same task and source gets a numbered variant.
  const solutions = join(resolve(options.resultsDir), 'solutions');
  mkdirSync(join(solutions, 'osworld'), { recursive: true });
  const taken = new Set<string>();
  for (const trajectory of trajectories) {
    let variant = trajectory.variant;
    for (let n = 2; taken.has(`${trajectory.taskId}.${variant}`); n++) variant = `${trajectory.variant}-${n}`;
    taken.add(`${trajectory.taskId}.${variant}`);
    trajectory.variant = variant;
    const note = `Replay of ${trajectory.file} (${trajectory.steps.length} steps${trajectory.score === undefined ? '' : `, scored ${trajectory.score} where recorded`}).`;
    writeFileSync(join(solutions, 'osworld', `${trajectory.taskId}.${variant}.json`), `${JSON.stringify({ id: trajectory.taskId, note, solution: trajectory.steps }, null, 2)}\n`);
  }
  const taskFiles = [...new Set(trajectories.map((t) => join(options.corpus, t.domain, `${t.taskId}.json`)))];
  const verification = await verify({
    paths: taskFiles,
    solutions: [solutions],
    resultsDir: options.resultsDir,
    pauseAfterAction: options.pause ?? 3,
    maxSteps: options.maxSteps ?? 100,
    timeout: options.timeout ?? 1800,
    ...(options.maxWorkers ? { maxWorkers: options.maxWorkers } : {}),
    ...(options.warm === undefined ? {} : { warm: options.warm }),
    ...(options.packageRoot ? { packageRoot: options.packageRoot } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
  const rowOf = (t: Trajectory) => verification.rows.find((row) => row.id === t.taskId && row.domain === t.domain);
  const rows = trajectories.map((t): ReplayRow => {
    const row = rowOf(t);
    return {
      file: t.file,
      taskId: t.taskId,
      domain: t.domain,
      variant: t.variant,
      steps: t.steps.length,
      ...(t.score === undefined ? {} : { recordedScore: t.score }),
      score: row?.runs[`scripted.${t.variant}`]?.scores[0] ?? null,
      noopScore: row?.runs.noop?.scores[0] ?? null,
    };
  });
  return { rows, errors: [...errors, ...verification.errors], verification };
}
