// Per-task results on disk, in OSWorld's layout so its tools (show_result.py) read them:
//   <resultsDir>/pyautogui/<observation type>/<agent>/<domain>/<task id>/
//     traj.jsonl, step_<n>_<YYYYmmdd@HHMMSSffffff>.png, result.txt, recording.mp4 (when recording)
// plus summary.json in the GUI-OS shape (the task fields and `results {score, eval_error, state, …}`).
// Files are written atomically (temp file + rename), so an interrupted run never leaves half a result.
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Action, TokenUsage } from '../agent/types.ts';
import type { DesktopEnvironment } from '../desktop/environment.ts';
import { pythonFloatRepr } from '../python/repr.ts';
import { containedPath } from '../task/contained-path.ts';
import type { Task } from '../task/types.ts';
import { redact } from '../shared/redact.ts';

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

export function readSummary(dir: string): TaskSummary | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as TaskSummary;
  } catch {
    return undefined;
  }
}

/**
 * Summaries of run `runId` still saying RUNNING under `resultsDir` — their worker died before the task ended — are
 * rewritten as ABORTED with `reason`. Returns the rewritten summaries.
 */
export function finalizeRunningSummaries(resultsDir: string, runId: string, reason: string): TaskSummary[] {
  const finalized: TaskSummary[] = [];
  const visit = (dir: string) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // no results yet, or a folder removed meanwhile
    }
    if (entries.some((entry) => entry.isFile() && entry.name === 'summary.json')) {
      const summary = readSummary(dir);
      if (summary?.results.state !== 'RUNNING' || summary.results.run_id !== runId) return;
      const end = Date.now() / 1000;
      const timing = { ...summary.results.total_timing, end_time: end, duration: Math.round((end - summary.results.total_timing.start_time) * 100) / 100 };
      const results = { ...summary.results, state: 'ABORTED' as const, output: reason, total_timing: timing };
      writeAtomic(join(dir, 'summary.json'), `${JSON.stringify({ ...summary, results }, null, 2)}\n`);
      appendLine(join(dir, 'traj.jsonl'), JSON.stringify({ Error: reason }));
      finalized.push({ ...summary, results });
      return; // a task's folder: nothing below it is another task
    }
    for (const entry of entries) if (entry.isDirectory()) visit(join(dir, entry.name));
  };
  visit(resultsDir);
  return finalized;
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
    const stamp = pythonTimestamp(entry.timestamp);
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

/** `%Y%m%d@%H%M%S%f` as OSWorld names step screenshots (microseconds from milliseconds). */
function pythonTimestamp(date: Date): string {
  const p = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${date.getFullYear()}${p(date.getMonth() + 1)}${p(date.getDate())}@${p(date.getHours())}${p(date.getMinutes())}${p(date.getSeconds())}${p(date.getMilliseconds() * 1000, 6)}`;
}

function safeName(name: string): string {
  return name.replace(/[^\w.-]+/g, '_');
}

/** Writes through a temp file and a rename, so a reader never sees half a file. */
export function writeAtomic(path: string, data: Buffer | string): void {
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, data);
  renameSync(temp, path);
}

function appendLine(path: string, line: string): void {
  writeFileSync(path, `${line}\n`, { flag: 'a' });
}
