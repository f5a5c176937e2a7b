// Runs inside vitest workers: the body of every generated task test. It runs the task, records score, state and
// eval_error in the test's meta (reporters and the json reporter carry them), attaches the final screenshot, and
// gives the verdict: pass when the score reaches the pass threshold.
import { join } from 'node:path';
import type { TestContext } from 'vitest';
import { findConfiguredAgent } from '../agent/configured.ts';
import { loadAgent } from '../agent/resolve.ts';
import { runTask as runTaskInDesktop } from '../runner/run-task.ts';
import type { Task } from '../task/types.ts';
import { type WorkerOptions, runTaskOptions } from './options.ts';

/** What a task test leaves in `meta.deskbench` for reporters. */
export interface TaskTestMeta {
  id: string;
  domain: string;
  format: string;
  tags: string[];
  score?: number;
  passed?: boolean;
  state?: string;
  evalError?: string | null;
  error?: string | null;
  steps?: number;
  resultDir?: string;
  durationMs?: number;
  /** The result is an earlier run's (resume). */
  resumed?: boolean;
}

/** The user's modules, imported by the generated test module (see generate.ts). */
export interface UserModules {
  /** The vitest config file, when the agent is an object of the config. */
  config?: { file: string; load(): Promise<unknown> };
  /** The agent module, when the agent option is a module. */
  agent?: () => Promise<unknown>;
}

export async function runTask(task: Task, options: WorkerOptions, context: TestContext, modules: UserModules = {}): Promise<void> {
  const meta = context.task.meta as { deskbench?: TaskTestMeta };
  // The agent can be switched for one run without editing the config: DESKBENCH_AGENT=noop vitest run …
  const override = process.env.DESKBENCH_AGENT;
  const agent = override
    ? await loadAgent(override, options.agentOptions)
    : typeof options.agent === 'string'
      ? await loadAgent(options.agent, options.agentOptions, undefined, modules.agent)
      : await findConfiguredAgent(options.agent.configured, modules.config?.file, modules.config?.load);
  const outcome = await runTaskInDesktop(task, runTaskOptions(options, agent, context.signal));
  meta.deskbench = {
    ...(meta.deskbench as TaskTestMeta),
    score: outcome.score,
    passed: outcome.passed,
    state: outcome.state,
    evalError: outcome.evalError ?? null,
    error: outcome.resumed ? null : (outcome.error ?? null),
    resumed: outcome.resumed,
    steps: outcome.steps,
    resultDir: outcome.resultDir,
    durationMs: outcome.durationMs,
  };
  if (outcome.finalScreenshot) {
    await context.annotate('final screen', 'screenshot', { contentType: 'image/png', path: join(outcome.resultDir, 'final.png') });
  }
  if (outcome.status === 'skipped') {
    context.skip(outcome.error ?? 'skipped');
    return;
  }
  if (outcome.status === 'error') {
    throw new Error(`${outcome.state}: ${outcome.error}\n(results: ${outcome.resultDir})`);
  }
  if (!outcome.passed) {
    const because = outcome.evalError ? `\neval_error: ${outcome.evalError}` : '';
    throw new Error(`score ${outcome.score} is below the pass threshold ${options.passThreshold} (agent ended with state ${outcome.state} after ${outcome.steps} steps)${because}\n(results: ${outcome.resultDir})`);
  }
}

