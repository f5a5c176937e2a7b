// The options of one task's run (turns, observation, timeout, the desktop, where results go): one schema, from which
// the plugin's option schema (src/node/plugin/options.ts) and the runner's RunTaskOptions both derive, so the list is
// written once here and in the README's option table (test/plugin/readme-options.test.ts keeps the two in step).
import { z } from 'zod';
import { DEFAULT_DESKTOP, desktopOptions } from '../desktop/providers/index.ts';

/** Where downloaded task files are cached, relative to the vitest root. */
export const DEFAULT_CACHE_DIR = '.cache/deskbench';

export const runOptionsSchema = z.object({
  /** Agent turns per task before the final state is judged (OSWorld's max_steps). */
  maxSteps: z.number().int().positive().default(15),
  /** What the agent observes each turn. */
  observationType: z.enum(['screenshot', 'a11y_tree', 'screenshot_a11y_tree']).default('screenshot'),
  /** Seconds to wait after each action before observing (OSWorld's sleep_after_execution). */
  pauseAfterAction: z.number().nonnegative().default(0.5),
  /**
   * Seconds at most the desktop may take to settle after setup, before the agent's first observation (OSWorld's
   * harness sleeps 60 there): the wait ends once the desktop is idle (its CPU under 15 % of a core for 2 s). 0: none.
   */
  settleAfterSetup: z.number().nonnegative().default(60),
  /** The same after the agent's last action, before the evaluation (OSWorld sleeps 20 there). 0: none. */
  settleBeforeEvaluation: z.number().nonnegative().default(20),
  /** Score at or above which the test passes. The raw score is always kept. */
  passThreshold: z.number().min(0).max(1).default(1),
  /** Folder for per-task results (traj.jsonl, screenshots, result.txt, summary.json). */
  resultsDir: z.string().default('results'),
  /** Host folder caching downloaded task files across runs, keyed by URL. */
  cacheDir: z.string().default(DEFAULT_CACHE_DIR),
  /** Offline files: a folder searched by file name, or a map from URL to local path, for task downloads. */
  files: z.union([z.string(), z.record(z.string(), z.string())]).optional(),
  /**
   * The files lock (`deskbench files lock` writes it): a downloaded or cached file whose sha256 differs from the lock
   * fails its task as SETUP_ERROR. No file there: nothing is checked. Default: deskbench-files.lock.json in the
   * vitest root (the current folder when runTask is called without the plugin).
   */
  filesLock: z.string().optional(),
  /** URL prefixes rewritten before a task file is fetched ({ 'https://huggingface.co/': 'http://mirror/hf/' }); DESKBENCH_FILES_MIRROR adds to it. */
  filesMirror: z.record(z.string(), z.string(), { error: 'expected `filesMirror`: an object of URL prefix → replacement prefix' }).optional(),
  /**
   * Where desktops come from: a local container per task (default; `image` defaults to DESKBENCH_IMAGE or
   * deskbench/desktop:latest; `limits` {memory, cpus, pids} default to {'4g', 2, 4096}; `hostAddress`, the host
   * interface its ports are published on, defaults to 127.0.0.1; `warm`, desktops started ahead of the tasks, defaults
   * to one per vitest worker) or an already running server (`remote`). One member per provider, each from its folder
   * in src/desktop/providers/ (index.ts lists them).
   */
  desktop: desktopOptions.default(DEFAULT_DESKTOP),
  /** Record the screen of each task to recording.mp4. */
  record: z.boolean().default(false),
  /** Per-task timeout in seconds (desktop start + setup + agent + evaluation); past it the task ends TIMED_OUT. */
  timeout: z.number().positive().default(1800),
  /** Skip tasks that already have a result in resultsDir (resume an interrupted run). */
  resume: z.boolean().default(false),
});

export type RunOptions = z.output<typeof runOptionsSchema>;

/** Every run option's default, for code that runs tasks without the plugin (the deskbench/test fixtures). */
export const DEFAULT_RUN_OPTIONS: RunOptions = runOptionsSchema.parse({});

const RUN_OPTION_NAMES = Object.keys(runOptionsSchema.shape) as (keyof RunOptions)[];

/** The run options out of a larger options object (the plugin's), and nothing else. */
export function pickRunOptions(options: RunOptions): RunOptions {
  return Object.fromEntries(RUN_OPTION_NAMES.filter((name) => options[name] !== undefined).map((name) => [name, options[name]])) as RunOptions;
}
