// The open registries of metrics and getters. Keys are the formats' own names (OSWorld's `func` and getter `type`
// strings), so users who know OSWorld find them. Built-in families register themselves from `builtins.ts`; users add
// their own with `defineMetric` / `defineGetter`, and `deskbench check` counts those as implemented.
import type { DesktopClient } from '../desktop/client.ts';
import type { DesktopService } from '../desktop/providers/provider.ts';
import { Registry } from '../shared/registry.ts';
import type { SourceFormat } from '../task/types.ts';

export type Options = Record<string, unknown>;

/**
 * A metric: `f(result, expected, options) → score`, OSWorld's calling convention. `result` and `expected` are what the
 * getters returned (usually a local file path, or a value); `expected` is undefined when the task has none.
 * Returns the raw score (floats stay floats). Throwing is allowed: the engine turns it into score 0 + eval_error.
 */
export type Metric = (result: unknown, expected: unknown, options: Options) => number | Promise<number>;

/** Where getters run: the desktop, the task's folders, and a cache folder for this task's downloaded files. */
export interface EvalEnv {
  /** Client for the desktop under test (OSWorld protocol). */
  desktop: DesktopClient;
  /** Folder that relative task files (GUI-OS `local_*`, `local_file`) resolve against. */
  taskDir: string;
  /** The task file, named in errors about the paths it gives. */
  taskFile?: string;
  /** Per-task folder where fetched files land (OSWorld's `cache/<task id>`); created before getters run. */
  cacheDir: string;
  /** Host folder shared across runs for downloaded URLs (keyed by URL). */
  downloadCacheDir: string;
  /** Resolves a remote URL (cloud_file, downloads) to a local file, honouring offline mappings; throws a clear error. */
  fetchUrl(url: string): Promise<string>;
  /** The desktop's Chrome DevTools endpoint (its port 9222), if any (browser getters). */
  cdp?: DesktopService;
  /** The desktop's VLC HTTP interface (its port 8080), if any. */
  vlc?: DesktopService;
  /** Aborts when the test times out or the user presses Ctrl-C. */
  signal?: AbortSignal;
}

/** A getter: `get_<type>(env, config)` in OSWorld. Returns a value, a local path, or null when nothing was found. */
export type Getter = (env: EvalEnv, config: Options) => unknown | Promise<unknown>;

export const metrics = new Registry<Metric>('metric');
export const getters = new Registry<Getter>('getter');

/**
 * Registers a metric under its format name. A metric that differs between formats under the same name (GUI-OS's
 * compare_csv vs OSWorld's) registers with `{ format: 'guios' }`; the engine prefers that variant for that format.
 */
export function defineMetric(name: string, metric: Metric, options: { format?: SourceFormat } = {}): void {
  metrics.define(name, metric, options.format);
}

export function defineGetter(type: string, getter: Getter): void {
  getters.define(type, getter);
}
