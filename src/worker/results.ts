// Per-task results on disk, in OSWorld's layout so its tools (show_result.py) read them:
//   <resultsDir>/pyautogui/<observation type>/<agent>/<domain>/<task id>/
//     traj.jsonl, step_<n>_<YYYYmmdd@HHMMSSffffff>.png, result.txt, recording.mp4 (when recording)
// plus summary.json in the GUI-OS shape (the task fields and `results {score, eval_error, state, …}`).
// Files are written atomically (temp file + rename), so an interrupted run never leaves half a result.
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Action } from '../agent/types.ts';
import { strftime } from '../python/datetime.ts';
import { pythonFloatRepr } from '../python/repr.ts';
import { containedPath } from '../task/contained-path.ts';
import type { Task } from '../task/types.ts';
import type { TaskSummary } from '../contract/summary.ts';
import { appendLine, writeAtomic } from '../shared/write-atomic.ts';
import { redact } from '../shared/redact.ts';

/**
 * The task's folder, checked to be a folder of its own below the domain's, inside `resultsDir`: the writer empties it
 * with `rm -rf`, so an id such as `..` or `../../x` (refused by the schemas already) must never get this far.
 */
export function taskResultDir(resultsDir: string, run: { observationType: string; agent: string }, task: Pick<Task, 'domain' | 'id'> & { file?: string }): string {
  const domainDir = containedPath(resultsDir, join('pyautogui', run.observationType, safeName(run.agent), task.domain), { file: task.file, field: 'domain (the task\'s folder name)' });
  return containedPath(domainDir, task.id, { file: task.file, field: 'id' });
}

/** An earlier run finished this task when its folder has result.txt (OSWorld's resume rule). */
export function hasResult(dir: string): boolean {
  return existsSync(join(dir, 'result.txt'));
}

export class TaskResultWriter {
  readonly dir: string;

  /** Masked in every message written (see redact.ts). */
  private readonly secrets: readonly string[];

  /** Starts the task's folder afresh: a re-run must not append to an earlier run's trajectory or keep its files. */
  constructor(dir: string, secrets: readonly string[] = []) {
    this.dir = dir;
    this.secrets = secrets;
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
  }

  /** One line of traj.jsonl and its screenshot, as OSWorld's runner writes them. */
  writeStep(entry: { step: number; action: Action; response?: string; done: boolean; info: Record<string, unknown>; screenshot: Buffer; timestamp: Date }): string {
    const stamp = strftime('%Y%m%d@%H%M%S%f', entry.timestamp); // as OSWorld names step screenshots
    const screenshotFile = `step_${entry.step}_${stamp}.png`;
    writeAtomic(join(this.dir, screenshotFile), entry.screenshot);
    const line = {
      step_num: entry.step,
      action_timestamp: stamp,
      action: entry.action,
      response: entry.response ?? null,
      reward: 0,
      done: entry.done,
      info: entry.info,
      screenshot_file: screenshotFile,
    };
    appendLine(join(this.dir, 'traj.jsonl'), JSON.stringify(redact(line, this.secrets)));
    return screenshotFile;
  }

  /** OSWorld's runner appends `{"Error": …}` to the trajectory when a run breaks. */
  writeError(message: string): void {
    appendLine(join(this.dir, 'traj.jsonl'), JSON.stringify({ Error: redact(message, this.secrets) }));
  }

  writeFile(name: string, data: Buffer | string): void {
    writeAtomic(join(this.dir, name), data);
  }

  /** result.txt holds the raw score as Python prints a float (`1.0`, `0.25`). */
  writeScore(score: number): void {
    writeAtomic(join(this.dir, 'result.txt'), `${pythonFloatRepr(score)}\n`);
  }

  writeSummary(summary: TaskSummary): void {
    writeAtomic(join(this.dir, 'summary.json'), `${JSON.stringify(redact(summary, this.secrets), null, 2)}\n`);
  }
}

export function summaryOf(task: Task, results: TaskSummary['results']): TaskSummary {
  return {
    uid: task.id,
    tool: task.domain,
    format: task.format,
    prompt: task.instruction,
    steps: task.stepHint ?? null,
    config: task.setup,
    evaluation: task.evaluator,
    tags: task.tags,
    counterpart: task.counterpart ?? null,
    source: task.extra.source ?? null,
    related_apps: task.relatedApps,
    results,
  };
}

function safeName(name: string): string {
  return name.replace(/[^\w.-]+/g, '_');
}
