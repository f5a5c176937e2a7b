// Options of the deskbench() plugin, validated once in the main process so a typo fails with a clear message.
import { z } from 'zod';
import { isAgent } from '../../agent/configured.ts';
import type { BuiltinAgentName } from '../../agent/resolve.ts';
import type { Agent } from '../../agent/types.ts';
import { redact, secretValues } from '../../shared/redact.ts';
import { runOptionsSchema } from '../../contract/run-options.ts';
import { OptionsError } from '../../errors.ts';

// The per-task run options (maxSteps, desktop, timeout …) are the runner's (src/contract/run-options.ts); the plugin adds
// what picks the tasks and the agent, and how often each runs.
const pluginOptionsSchema = runOptionsSchema.extend({
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
  /**
   * Which shipped solution the scripted agent replays: the main one (`<id>.json`, when absent) or a second one,
   * `<id>.<variant>.json` (such as 'gui'); with a variant, tasks without that file have no solution.
   */
  solutionVariant: z
    .string({ error: 'expected `solutionVariant`: the name of a second solution, such as "gui" (<id>.gui.json)' })
    .regex(/^[a-z][a-z0-9-]*$/, { error: 'expected `solutionVariant`: lower-case letters, digits and dashes, such as "gui" (<id>.gui.json)' })
    .optional(),
  /** Options passed to the agent module's default export when it is a factory function. */
  agentOptions: z.record(z.string(), z.unknown()).default({}),
  /**
   * Runs of each task (one test each): the report gives each task's pass rate over them and names the flaky ones
   * (passed in some runs, failed in others). With more than one, run i's results go to `<resultsDir>/run-<i>/`.
   */
  repeats: z.number({ error: 'expected `repeats`: a whole number of runs per task, 1 or more' }).int().positive().default(1),
});

export type DeskbenchOptions = z.input<typeof pluginOptionsSchema>;
/** Every option's name, in the schema's order (the README's option table is checked against it). */
export const OPTION_NAMES = Object.keys(pluginOptionsSchema.shape);
export type ResolvedOptions = z.output<typeof pluginOptionsSchema>;

export function resolveOptions(options: DeskbenchOptions): ResolvedOptions {
  const parsed = pluginOptionsSchema.safeParse(options);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new OptionsError(`deskbench(): invalid option ${issue.path.join('.') || '(options)'}: ${issue.message}`);
  }
  return parsed.data;
}

/** The defaults of every option but `tasks` (the README's option table is checked against them). */
export const DEFAULT_OPTIONS: Omit<ResolvedOptions, 'tasks'> = pluginOptionsSchema.omit({ tasks: true }).parse({});

/**
 * The options as the run record keeps them (src/node/report/run-record.ts): as resolved, defaults filled in and paths as
 * written; an agent object by its name, a function by its name (JSON keeps neither); secrets masked.
 */
export function recordedOptions(options: ResolvedOptions): Record<string, unknown> {
  const agent = typeof options.agent === 'string' ? options.agent : { object: options.agent.name };
  const json = JSON.stringify({ ...options, agent }, (_key, value) => (typeof value === 'function' ? `function ${value.name || '(anonymous)'}` : value));
  return redact(JSON.parse(json) as Record<string, unknown>, runSecrets(options));
}

/** What must never be stored or printed: the agent's keys, a remote desktop's token, secret environment variables. */
export function runSecrets(options: Pick<ResolvedOptions, 'agentOptions' | 'desktop'>): string[] {
  return secretValues({ agentOptions: options.agentOptions, desktop: options.desktop });
}

/** What the deskbench() plugin exposes to tools on its `api` (see src/node/plugin/index.ts). */
export interface PluginApi {
  tasks: string | string[];
  extensions: string[];
  /** Where the files the tasks download are cached and locked (relative to the project's root), and the mirror. */
  cacheDir?: string;
  filesLock?: string;
  filesMirror?: Record<string, string>;
  /** The options as a run records them (recordedOptions above): `deskbench rerun` compares them. */
  recordedOptions?: Record<string, unknown>;
}
