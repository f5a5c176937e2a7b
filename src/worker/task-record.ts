// The record step: a task's results on disk (OSWorld's layout, src/worker/results.ts) and the outcome runTask returns.
// summary.json says RUNNING from the start, so a worker that dies leaves a task the reporter turns into ABORTED; the
// first verdict is then written once and stands: a later one gets the same outcome back and writes nothing.
import type { DesktopEnvironment } from '../desktop/environment.ts';
import type { TokenUsage } from '../agent/types.ts';
import { redact } from '../shared/redact.ts';
import { TaskResultWriter, summaryOf } from './results.ts';
import type { Task } from '../task/types.ts';
import type { PhaseClock } from './phases.ts';
import type { TaskOutcome } from './types.ts';
import type { Verdict } from './verdicts.ts';

type AgentStep = Parameters<TaskResultWriter['writeStep']>[0];

/** An outcome with what every outcome carries: the results folder, the duration and the phases' timings. */
export function outcomeOf(fields: Omit<TaskOutcome, 'resultDir' | 'durationMs' | 'timings'>, resultDir: string, clock: PhaseClock): TaskOutcome {
  return { ...fields, resultDir, durationMs: Date.now() - clock.started, timings: clock.timings };
}

export interface TaskRecordOptions {
  resultDir: string;
  clock: PhaseClock;
  /** Masked in everything written and in the outcome's messages. */
  secrets: readonly string[];
  agentName: string;
  passThreshold: number;
  /** The run the summary belongs to: the reporter finalises its RUNNING summaries. */
  runId: string;
}

export class TaskRecord {
  /** What the agent has done so far; the summary and the outcome report it. */
  steps = 0;
  responses: string[] = [];
  readonly usage: TokenUsage = { input_tokens: 0, output_tokens: 0, total_tokens: 0 };
  finalScreenshot?: Buffer;
  /** The image and app versions, once the desktop has described itself. */
  environment?: DesktopEnvironment;

  private readonly task: Task;
  private readonly options: TaskRecordOptions;
  private readonly writer: TaskResultWriter;
  private outcome?: TaskOutcome;

  /** Starts the task's results folder afresh. */
  constructor(task: Task, options: TaskRecordOptions) {
    this.task = task;
    this.options = options;
    this.writer = new TaskResultWriter(options.resultDir, options.secrets);
  }

  /** True once the verdict is written: nothing more is. */
  get settled(): boolean {
    return this.outcome !== undefined;
  }

  writeRunning(): void {
    this.writer.writeSummary(this.summary({ score: 0, passed: false, state: 'RUNNING' }));
  }

  writeStep(step: AgentStep): void {
    this.steps = step.step;
    this.writer.writeStep(step);
  }

  writeRecording(video: Buffer): void {
    this.writer.writeFile('recording.mp4', video);
  }

  /** Writes the verdict (summary, final.png, the score or the error) unless one already was; returns the outcome. */
  finish(verdict: Verdict): TaskOutcome {
    if (this.outcome) return this.outcome;
    const { secrets, passThreshold, resultDir, clock } = this.options;
    // Model API errors may quote the key: the messages leave the runner masked (test errors, meta, reports).
    const result = { ...verdict, error: redact(verdict.error, secrets), evalError: redact(verdict.evalError, secrets) };
    const passed = result.status === 'scored' && result.score >= passThreshold;
    this.writer.writeSummary(this.summary({ ...result, passed }));
    if (this.finalScreenshot) this.writer.writeFile('final.png', this.finalScreenshot);
    if (result.status === 'scored') this.writer.writeScore(result.score);
    else if (result.error) this.writer.writeError(result.error);
    this.outcome = outcomeOf({ ...result, passed, steps: this.steps, finalScreenshot: this.finalScreenshot, desktop: this.environment }, resultDir, clock);
    return this.outcome;
  }

  private summary(result: Omit<Verdict, 'status'> & { passed: boolean }) {
    const { started, timings } = this.options.clock;
    return summaryOf(this.task, {
      score: result.score,
      passed: result.passed,
      eval_error: result.evalError ?? null,
      error_log_path: null,
      output: result.error ?? null,
      state: result.state,
      messages: this.responses.map((content) => ({ role: 'assistant', content })),
      total_tokens: this.usage,
      total_timing: { start_time: started / 1000, end_time: Date.now() / 1000, duration: Math.round((Date.now() - started) / 10) / 100, phases_ms: timings },
      agent: this.options.agentName,
      steps_taken: this.steps,
      run_id: this.options.runId,
      desktop: this.environment ?? null,
      details: result.details,
      ...(result.infraError ? { infrastructure_error: result.infraError } : {}),
    });
  }
}
