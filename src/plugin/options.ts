// Options of the deskbench() plugin, validated once in the main process so a typo fails with a clear message.
import { z } from 'zod';
import { type ConfiguredAgentRef, isAgent } from '../agent/configured.ts';
import type { BuiltinAgentName } from '../agent/resolve.ts';
import type { Agent } from '../agent/types.ts';
import { secretValues } from '../report/redact.ts';
import type { RunTaskOptions } from '../runner/run-task.ts';

const pluginOptionsSchema = z.object({
  /** Task files, folders, globs or index files (test_all.json …), relative to the vitest root. */
  tasks: z.union([z.string(), z.array(z.string()).min(1)], { error: 'expected `tasks`: a path, glob or index file, or a list of them' }),
  /**
   * The agent under test: a built-in name ("scripted", "noop", "fail", "openai", "anthropic"), a module path whose
   * default export is an Agent or a factory, or an Agent object (found again in the workers by its `name`).
   */
  agent: z
    .custom<BuiltinAgentName | (string & {}) | Agent>((value) => typeof value === 'string' || isAgent(value), {
      error: 'expected `agent`: a built-in agent name, a module path, or an Agent object ({ name, predict })',
    })
    .default('scripted'),
  /**
   * Modules that add setup steps, getters or metrics (defineSetupStep / defineGetter / defineMetric). Every task test
   * imports them first; give the same list to `deskbench check --extensions` so it counts them as implemented.
   */
  extensions: z.array(z.string(), { error: 'expected `extensions`: a list of module paths' }).default([]),
  /**
   * Folders of shipped solutions (`<folder>/<format>/<task id>.json`, see src/solutions/load.ts), relative to the vitest
   * root, for the scripted agent to replay against unmodified task files. A task's own `solution` field wins.
   */
  solutions: z
    .union([z.string(), z.array(z.string())], { error: 'expected `solutions`: a folder or a list of folders of solution files' })
    .transform((value) => (typeof value === 'string' ? [value] : value))
    .default([]),
  /** Options passed to the agent module's default export when it is a factory function. */
  agentOptions: z.record(z.string(), z.unknown()).default({}),
  /** Agent turns per task before the final state is judged (OSWorld's max_steps). */
  maxSteps: z.number().int().positive().default(15),
  /** What the agent observes each turn. */
  observationType: z.enum(['screenshot', 'a11y_tree', 'screenshot_a11y_tree']).default('screenshot'),
  /** Seconds to wait after each action before observing (OSWorld's sleep_after_execution). */
  pauseAfterAction: z.number().nonnegative().default(0.5),
  /** Score at or above which the test passes. The raw score is always kept. */
  passThreshold: z.number().min(0).max(1).default(1),
  /** Folder for per-task results (traj.jsonl, screenshots, result.txt, summary.json). */
  resultsDir: z.string().default('results'),
  /** Host folder caching downloaded task files across runs, keyed by URL. */
  cacheDir: z.string().default('.cache/deskbench'),
  /** Offline files: a folder searched by file name, or a map from URL to local path, for task downloads. */
  files: z.union([z.string(), z.record(z.string(), z.string())]).optional(),
  /**
   * Where desktops come from: a local container per task (default; `image` defaults to DESKBENCH_IMAGE or
   * deskbench/desktop:latest; `limits` {memory, cpus, pids} default to {'4g', 2, 4096}; `hostAddress`, the host
   * interface its ports are published on, defaults to 127.0.0.1; `warm`, desktops started ahead of the tasks, defaults
   * to one per vitest worker) or an already running server.
   */
  desktop: z
    .discriminatedUnion('provider', [
      z.object({
        provider: z.literal('docker'),
        image: z.string().optional(),
        limits: z
          .object({
            memory: z.union([z.number().int().positive(), z.string().regex(/^\d+(\.\d+)?\s*[kmgt]?i?b?$/i, "a size such as '4g' or '512m'")]).optional(),
            cpus: z.number().positive().optional(),
            pids: z.number().int().positive().optional(),
          })
          .strict()
          .optional(),
        hostAddress: z.string().optional(),
        /** Desktops started ahead of the tasks (src/desktop/warm-pool.ts); default one per worker, 0 disables. */
        warm: z.int({ error: 'expected a whole number of desktops (0 disables)' }).nonnegative({ error: 'expected a whole number of desktops (0 disables)' }).optional(),
      }),
      z.object({ provider: z.literal('remote'), url: z.string().url(), token: z.string().optional() }),
    ])
    .default({ provider: 'docker' }),
  /** Record the screen of each task to recording.mp4. */
  record: z.boolean().default(false),
  /** Per-task timeout in seconds (desktop start + setup + agent + evaluation); past it the task ends TIMED_OUT. */
  timeout: z.number().positive().default(1800),
  /**
   * Runs of each task (one test each): the report gives each task's pass rate over them and names the flaky ones
   * (passed in some runs, failed in others). With more than one, run i's results go to `<resultsDir>/run-<i>/`.
   */
  repeats: z.number({ error: 'expected `repeats`: a whole number of runs per task, 1 or more' }).int().positive().default(1),
  /** Skip tasks that already have a result in resultsDir (resume an interrupted run). */
  resume: z.boolean().default(false),
});

export type DeskbenchOptions = z.input<typeof pluginOptionsSchema>;
export type ResolvedOptions = z.output<typeof pluginOptionsSchema>;
/** The options as generated tests carry them (JSON): an agent object is replaced by a reference to it. */
export type WorkerOptions = Omit<ResolvedOptions, 'agent'> & { agent: string | ConfiguredAgentRef };

export function resolveOptions(options: DeskbenchOptions): ResolvedOptions {
  const parsed = pluginOptionsSchema.safeParse(options);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`deskbench(): invalid option ${issue.path.join('.') || '(options)'}: ${issue.message}`);
  }
  return parsed.data;
}

/** The defaults of every option but `tasks`, for code that runs tasks without the plugin (the test fixtures). */
export const DEFAULT_OPTIONS: Omit<ResolvedOptions, 'tasks'> = pluginOptionsSchema.omit({ tasks: true }).parse({});

/** What the runner needs from the plugin's options, for one agent and one test's abort signal. */
export function runTaskOptions(options: Omit<ResolvedOptions, 'tasks' | 'agent'>, agent: Agent, signal?: AbortSignal): RunTaskOptions {
  const { maxSteps, observationType, pauseAfterAction, passThreshold, resultsDir, cacheDir, files, desktop, record, resume, timeout } = options;
  const secrets = runSecrets(options);
  return { agent, maxSteps, observationType, pauseAfterAction, passThreshold, resultsDir, cacheDir, files, desktop, record, resume, timeout, secrets, signal };
}

/** What must never be stored or printed: the agent's keys, a remote desktop's token, secret environment variables. */
export function runSecrets(options: Pick<ResolvedOptions, 'agentOptions' | 'desktop'>): string[] {
  return secretValues({ agentOptions: options.agentOptions, desktop: options.desktop });
}

/**
 * The options that never go into generated modules (vitest caches those on disk): the plugin provides them to the
 * workers over vitest's IPC (project.provide), and the generated test injects them.
 */
const SECRET_OPTIONS = ['agentOptions', 'desktop'] as const;
export type SecretOptions = Pick<ResolvedOptions, (typeof SECRET_OPTIONS)[number]>;
export const SECRET_OPTIONS_KEY = 'deskbench:secret-options';

export function splitSecretOptions<T extends SecretOptions>(options: T): { plain: Omit<T, keyof SecretOptions>; secret: SecretOptions } {
  const { agentOptions, desktop, ...plain } = options;
  return { plain, secret: { agentOptions, desktop } };
}
