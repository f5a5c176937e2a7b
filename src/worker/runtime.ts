// Runs inside vitest workers: the body of every generated task test. It runs the task, records score, state and
// eval_error in the test's meta (reporters and the json reporter carry them), attaches the final screenshot, and
// gives the verdict: pass when the score reaches the pass threshold.
import { join, relative, sep } from 'node:path';
import { type TestContext, inject, recordArtifact } from 'vitest';
import { findConfiguredAgent } from '../agent/configured.ts';
import { type AgentIdentity, agentIdentity } from '../agent/identity.ts';
import type { DesktopEnvironment } from '../desktop/environment.ts';
import { BUILTIN_AGENTS, loadAgent } from '../agent/resolve.ts';
import { runTask as runTaskInDesktop } from './run-task.ts';
import type { Task } from '../task/types.ts';
import { PROGRESS_ARTIFACT, type TaskProgress } from '../contract/progress.ts';
import type { DesktopSpec } from '../desktop/provider.ts';
import { DESKTOP_POOL_KEY } from '../desktop/warm-pool-endpoint.ts';
import { redact } from '../shared/redact.ts';
import { type WorkerOptions, runSecrets, runTaskOptions } from '../node/plugin/options.ts';
import { verdictLines } from './verdict-message.ts';

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
  /** The task's results folder, relative to `resultsDir` (forward slashes). */
  resultDir?: string;
  durationMs?: number;
  /** The result is an earlier run's (resume). */
  resumed?: boolean;
  /** Which run of the task this is (from 1), when the repeats option asks for several. */
  repeat?: number;
  /** The desktop image and app versions the task ran on. */
  desktop?: DesktopEnvironment;
  /** The code of the infrastructure error that ended the task (a download that failed, a file changed upstream). */
  infraError?: string;
  /** The task file relative to the vitest root and its sha256, when the test module was generated. */
  taskFile?: string;
  taskSha256?: string;
  /** The agent that ran it: name, module and its hash, what describe() says (the run record's agents). */
  agentIdentity?: AgentIdentity;
}

/** What the generated test module hands over to import the user's modules (see generate.ts). */
export interface UserModules {
  /** import() through vitest's module runner. */
  importModule?: (id: string) => Promise<unknown>;
  /** Config files that may register the agent object, in the order to try them. */
  configFiles?: string[];
  /** The agent module as the main process resolved it. */
  agentPath?: string;
}

export async function runTask(task: Task, options: WorkerOptions, context: TestContext, modules: UserModules = {}, repeat?: number): Promise<void> {
  const meta = context.task.meta as { deskbench?: TaskTestMeta };
  if (!options.desktop || !options.agentOptions) {
    throw new Error('deskbench: the plugin did not provide this worker with its options (vitest inject("deskbench:secret-options") is empty)');
  }
  // The run's warm desktops (global-setup.ts): the task takes one there instead of starting its own. The pool's
  // token sits under `desktop`, where runSecrets masks it.
  const pool = inject(DESKTOP_POOL_KEY);
  const desktop: DesktopSpec = pool && options.desktop.provider === 'docker' ? { ...options.desktop, pool } : options.desktop;
  options = { ...options, desktop };
  const agent = await chooseAgent(options, modules).catch((error: Error) => {
    // A factory may fail quoting its options (an API key): masked, and without the original as cause (vitest prints it).
    throw new Error(redact(`could not load the agent: ${error.message ?? error}`, runSecrets(options)));
  });
  const identity = redact(await agentIdentity(agent, agentSource(options, modules), process.cwd()), runSecrets(options));
  // Where the task is goes to the reporters as vitest test artifacts, in order; all are recorded before the verdict.
  let reported = Promise.resolve();
  const onProgress = (progress: TaskProgress) => {
    reported = reported.then(() => recordArtifact(context.task, { type: PROGRESS_ARTIFACT, progress })).then(
      () => {},
      () => {}, // a progress line lost is no reason to fail the task
    );
  };
  // Each run of a repeated task keeps a results folder of its own, each in OSWorld's layout.
  const resultsDir = repeat ? join(options.resultsDir, `run-${repeat}`) : options.resultsDir;
  const outcome = await runTaskInDesktop(task, { ...runTaskOptions(options, agent, context.signal), resultsDir, onProgress });
  await reported;
  meta.deskbench = {
    ...(meta.deskbench as TaskTestMeta),
    score: outcome.score,
    passed: outcome.passed,
    state: outcome.state,
    evalError: outcome.evalError ?? null,
    error: outcome.resumed ? null : (outcome.error ?? null),
    resumed: outcome.resumed,
    steps: outcome.steps,
    // Relative to the results folder, so a report merged from shards on other machines still finds the files.
    resultDir: relative(options.resultsDir, outcome.resultDir).split(sep).join('/'),
    durationMs: outcome.durationMs,
    ...(outcome.desktop ? { desktop: outcome.desktop } : {}),
    ...(outcome.infraError ? { infraError: outcome.infraError } : {}),
    agentIdentity: identity,
  };
  if (outcome.finalScreenshot) {
    await context.annotate('final screen', 'screenshot', { contentType: 'image/png', path: join(outcome.resultDir, 'final.png') });
  }
  // One annotation per fact: vitest's JUnit reporter writes each as a <property name=type value=message>, for every
  // task, passed or not.
  for (const [type, value] of [['deskbench.score', outcome.score], ['deskbench.state', outcome.state], ['deskbench.steps', outcome.steps], ['deskbench.results', outcome.resultDir]] as const) {
    await context.annotate(String(value), type);
  }
  // The infrastructure's failure, not the agent's: JUnit carries it as a property of its own.
  if (outcome.infraError) await context.annotate(outcome.infraError, 'deskbench.infrastructure_error');
  if (outcome.status === 'skipped') {
    context.skip(outcome.error ?? 'skipped');
    return;
  }
  if (outcome.status === 'error') {
    const infrastructure = outcome.infraError ? ` (infrastructure error ${outcome.infraError}, not the agent's)` : '';
    throw new Error(`${outcome.state}${infrastructure}: ${outcome.error}\n(results: ${outcome.resultDir})`);
  }
  if (!outcome.passed) {
    const verdict = (await verdictLines(outcome.details)).map((line) => `\n${line}`).join('');
    const because = outcome.evalError ? `\neval_error: ${outcome.evalError}` : '';
    const message = `score ${outcome.score} is below the pass threshold ${options.passThreshold} (agent ended with state ${outcome.state} after ${outcome.steps} steps)${verdict}${because}\n(results: ${outcome.resultDir})`;
    throw new Error(redact(message, runSecrets(options)));
  }
}

/** Where chooseAgent takes the agent from, for the run record (same precedence). */
function agentSource(options: WorkerOptions, { configFiles = [], agentPath }: UserModules): Parameters<typeof agentIdentity>[1] {
  const spec = process.env.DESKBENCH_AGENT || (typeof options.agent === 'string' ? (agentPath ?? options.agent) : undefined);
  if (spec === undefined) return { objectIn: configFiles[0] ?? 'vitest config' };
  return Object.hasOwn(BUILTIN_AGENTS, spec) ? { name: spec } : { module: spec };
}

/** The agent option's agent, or the one DESKBENCH_AGENT names for this run (noop, fail, a module path …). */
function chooseAgent(options: WorkerOptions, { importModule, configFiles = [], agentPath }: UserModules) {
  // The option's module as the main process resolved it; an override's path is relative to where vitest runs.
  const spec = process.env.DESKBENCH_AGENT || (typeof options.agent === 'string' ? (agentPath ?? options.agent) : options.agent);
  if (typeof spec === 'object') return findConfiguredAgent(spec.configured, configFiles, importModule);
  // Module files are imported through vitest, like the config's.
  return loadAgent(spec, options.agentOptions, process.cwd(), importModule);
}
