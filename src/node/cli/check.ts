// `deskbench check [paths…] [--json]`: loads and validates every task under the paths and says what deskbench can
// run — per step type, getter type and metric, read from the same registries the runner uses, and per program the
// tasks run in the desktop, read from the desktop image's table (src/desktop/provided-commands.ts).
import type { PluginApi } from '../plugin/options.ts';
import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { desktopProvides, whyLacking } from '../../desktop/provided-commands.ts';
import { LOCKFILE_NAME } from '../../files/lockfile.ts';
import { type FilesStatus, filesStatus, formatFilesStatus } from './check-files.ts';
import { DEFAULT_CACHE_DIR } from '../../contract/run-options.ts';
import { registerBuiltins } from '../../eval/builtins.ts';
import { getters, metrics } from '../../eval/registry.ts';
import { registerBuiltinSteps } from '../../setup/builtins.ts';
import { setupSteps } from '../../setup/registry.ts';
import { taskPrograms } from '../../adapters/programs.ts';
import { collectGetterTypes, collectMetricNames } from '../../task/flags.ts';
import { type Solutions, goldOnlyMarkFor, loadSolutions } from '../../solutions/load.ts';
import { TaskFileError } from '../../task/errors.ts';
import { adapters, registerAdapters } from '../../adapters/index.ts';
import { loadTasks } from '../../adapters/load.ts';
import type { SourceFormat, Task } from '../../task/types.ts';
import { DeskbenchError, type ErrorCode } from '../../errors.ts';

export interface CheckReport {
  tasks: number;
  /** Invalid files: the file, the JSON path, the line and column (when known) and what was expected. */
  errors: { file: string; path: string; message: string; line?: number; column?: number }[];
  runnable: number;
  byFormat: Record<SourceFormat, number>;
  byDomain: Record<string, number>;
  /**
   * Names in use that deskbench does not implement, and programs the tasks run that the desktop lacks, with the
   * number of tasks using each.
   */
  unsupported: Record<Kind, Record<string, number>>;
  /** Every name and program in use, with its task count and whether it is implemented (for a program: provided). */
  usage: Record<Kind, UsageRow[]>;
  /** Tasks that cannot run on the Linux desktop whatever is implemented (OSWorld examples_windows). */
  windowsOnly: number;
  /**
   * Tasks the solution folders mark gold_only: their checker wants text that only a gold file holds, so no agent (and
   * no honest solution) can pass them.
   */
  goldOnly: { id: string; format: SourceFormat; file: string; reason: string }[];
  indexFiles: string[];
  /** Per task that downloads files: how many of its URLs are locked and cached (when check was given the settings). */
  files?: FilesStatus;
}

/** Setup step types, getter types, metric names, and the programs tasks run in the desktop (not Windows-only ones). */
type Kind = 'steps' | 'getters' | 'metrics' | 'programs';
const KINDS: readonly Kind[] = ['steps', 'getters', 'metrics', 'programs'];

interface UsageRow {
  name: string;
  tasks: number;
  /** Whether deskbench implements the name; for a program, whether the desktop image provides it. */
  implemented: boolean;
  /** For a name deskbench does not implement or a program the desktop lacks: the task files that use it. */
  files?: string[];
  /** For a program the desktop lacks: why. */
  reason?: string;
}

/** The config files vitest looks for, in its order. */
const CONFIG_FILES = ['vitest.config', 'vite.config'].flatMap((name) => ['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs'].map((ext) => `${name}${ext}`));

/** A problem with the vitest config that `check` without paths reads: a usage error (exit 2). */
export class ConfigError extends DeskbenchError {
  override readonly code: ErrorCode = 'DESKBENCH_CONFIG';
}

/** The parts of a vitest config `check` reads (the plugins, of the root config and of inline projects). */
interface VitestConfigShape {
  root?: string;
  plugins?: unknown;
  test?: { root?: string; projects?: ({ root?: string; plugins?: unknown; test?: { root?: string } } | string)[] };
}

/**
 * The task paths (absolute) and extension modules of every deskbench() plugin in the vitest config — its top-level
 * plugins and those of its inline projects — as `deskbench check` reads them when given no path. `configFile` is the
 * file to read (`--config`), else the one vitest would find in `cwd`.
 */
export async function tasksFromVitestConfig(cwd = process.cwd(), configFile?: string): Promise<{ configFile: string; tasks: string[]; extensions: string[]; files: FilesSettings; plugins: PluginApi[] }> {
  const file = configFile ? resolve(cwd, configFile) : CONFIG_FILES.map((name) => join(cwd, name)).find((path) => existsSync(path));
  if (!file) {
    throw new ConfigError(`no task paths given, and no vitest config in ${cwd} (looked for ${CONFIG_FILES.slice(0, 2).join(', ')}, …): give the task folders (deskbench check tasks/) or run it where your vitest.config.ts is`);
  }
  if (!existsSync(file)) throw new ConfigError(`--config ${configFile}: no such file (${file})`);
  // vite is vitest's own dependency: it loads the config as vitest does (TypeScript, its imports bundled).
  const { loadConfigFromFile } = await import('vite');
  let config: VitestConfigShape;
  try {
    const loaded = await loadConfigFromFile({ command: 'serve', mode: 'test' }, file, dirname(file), 'silent');
    config = (loaded?.config ?? {}) as VitestConfigShape;
  } catch (error) {
    throw new ConfigError(`could not load ${file}: ${(error as Error).message}`);
  }
  const root = resolve(cwd, config.test?.root ?? config.root ?? '.');
  const found: { root: string; api: PluginApi }[] = [];
  const collect = async (plugins: unknown, projectRoot: string) => {
    for (const plugin of [await plugins].flat(Infinity as 1)) {
      const resolved = (await plugin) as { name?: string; api?: { deskbench?: PluginApi } } | undefined;
      if (Array.isArray(resolved)) await collect(resolved, projectRoot);
      else if (resolved?.name === 'deskbench' && resolved.api?.deskbench) found.push({ root: projectRoot, api: resolved.api.deskbench });
    }
  };
  await collect(config.plugins, root);
  for (const project of config.test?.projects ?? []) {
    // Inline projects only: a project given as a config file path or glob is that file's business.
    if (project && typeof project === 'object') await collect(project.plugins, resolve(root, project.root ?? project.test?.root ?? '.'));
  }
  if (!found.length) {
    throw new ConfigError(`${relative(cwd, file) || file} does not use the deskbench plugin (plugins: [deskbench({ tasks: 'tasks' })]): add it, or give the task folders (deskbench check tasks/)`);
  }
  const tasks = found.flatMap(({ root: base, api }) => (Array.isArray(api.tasks) ? api.tasks : [api.tasks]).map((path) => resolve(base, path)));
  const extensions = found.flatMap(({ root: base, api }) => api.extensions.map((spec) => (spec.startsWith('.') ? resolve(base, spec) : spec)));
  // The download cache, the lock and the mirror: the first plugin's (one project's files are one set).
  const [first] = found;
  const files: FilesSettings = {
    cacheDir: resolve(first.root, first.api.cacheDir ?? DEFAULT_CACHE_DIR),
    lock: resolve(first.root, first.api.filesLock ?? LOCKFILE_NAME),
    mirror: first.api.filesMirror,
  };
  return { configFile: file, tasks: [...new Set(tasks)], extensions: [...new Set(extensions)], files, plugins: found.map(({ api }) => api) };
}

/** Where a project's downloaded files are cached and locked, and its mirror (absolute paths). */
export interface FilesSettings {
  cacheDir: string;
  lock: string;
  mirror?: Record<string, string>;
}

/** The settings without a vitest config: the defaults, relative to `cwd`. */
export function defaultFilesSettings(cwd = process.cwd()): FilesSettings {
  return { cacheDir: resolve(cwd, DEFAULT_CACHE_DIR), lock: resolve(cwd, LOCKFILE_NAME) };
}

/**
 * `solutions`: folders of solution files, read for their gold_only marks (a broken file is an invalid file);
 * `files`: the download settings, for the per-task lock and cache status.
 */
export function checkTasks(
  paths: readonly string[],
  cwd = process.cwd(),
  options: { solutions?: readonly string[]; files?: FilesSettings } = {},
): CheckReport {
  const { files } = options;
  registerBuiltins();
  registerBuiltinSteps();
  registerAdapters();
  const { tasks, errors, indexFiles } = loadTasks(paths, { cwd });
  let solutions: Solutions = new Map();
  try {
    solutions = loadSolutions((options.solutions ?? []).map((folder) => resolve(cwd, folder)));
  } catch (error) {
    if (!(error instanceof TaskFileError)) throw error;
    errors.push(error);
  }
  const byFormat: Record<SourceFormat, number> = Object.fromEntries(adapters.names().map((name) => [name, 0]));
  const byDomain: Record<string, number> = {};
  /** Per kind, per name: the task files using it (their count is the task count). */
  const users = Object.fromEntries(KINDS.map((kind) => [kind, new Map<string, string[]>()])) as Record<Kind, Map<string, string[]>>;
  const implemented: Record<Kind, (name: string, format?: SourceFormat) => boolean> = {
    steps: (name: string) => setupSteps.has(name),
    getters: (name: string) => getters.has(name),
    /** With a format: what the engine would run for a task of that format; without: under some format. */
    metrics: (name: string, format?: SourceFormat) =>
      name === 'infeasible' || (format ? metrics.get(name, format) !== undefined : metrics.has(name)),
    programs: desktopProvides,
  };
  let runnable = 0;
  let windowsOnly = 0;
  for (const task of tasks) {
    byFormat[task.format]++;
    byDomain[task.domain] = (byDomain[task.domain] ?? 0) + 1;
    const used = namesUsed(task);
    for (const kind of KINDS) {
      for (const name of used[kind]) users[kind].set(name, [...(users[kind].get(name) ?? []), task.file]);
    }
    if (task.platform === 'windows') windowsOnly++;
    else if (KINDS.every((kind) => [...used[kind]].every((name) => implemented[kind](name, task.format)))) runnable++;
  }
  const usage = Object.fromEntries(KINDS.map((kind) => [kind, [] as UsageRow[]])) as Record<Kind, UsageRow[]>;
  const unsupported = Object.fromEntries(KINDS.map((kind) => [kind, {}])) as Record<Kind, Record<string, number>>;
  for (const kind of KINDS) {
    for (const [name, files] of [...users[kind]].sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]))) {
      const ok = implemented[kind](name);
      const reason = kind === 'programs' && !ok ? { reason: whyLacking(name) } : {};
      usage[kind].push({ name, tasks: files.length, implemented: ok, ...(ok ? {} : { files }), ...reason });
      if (!ok) unsupported[kind][name] = files.length;
    }
  }
  return {
    tasks: tasks.length,
    errors: errors.map((error) => error.toJSON()),
    runnable,
    byFormat,
    byDomain,
    unsupported,
    usage,
    windowsOnly,
    goldOnly: tasks.flatMap((task) => {
      const mark = goldOnlyMarkFor(task, solutions);
      return mark ? [{ id: task.id, format: task.format, file: task.file, reason: mark.reason }] : [];
    }),
    indexFiles,
    ...(files ? { files: filesStatus(tasks, files) } : {}),
  };
}

/**
 * Step types (setup and postconfig, minus those the reference skips), getter types and metric names of a task, and
 * the programs it runs in the desktop (none counted for a Windows-only task: it never runs on this desktop).
 */
function namesUsed(task: Task): Record<Kind, Set<string>> {
  const steps = [...task.setup, ...(task.evaluator?.postconfig ?? [])].filter((step) => !step.ignoredBecause);
  return {
    steps: new Set(steps.map((step) => step.type)),
    getters: new Set(task.evaluator ? collectGetterTypes(task.evaluator.root) : []),
    metrics: new Set(task.evaluator ? collectMetricNames(task.evaluator.root) : []),
    programs: new Set(task.platform === 'windows' ? [] : taskPrograms(task)),
  };
}

export function formatCheckReport(report: CheckReport, cwd = process.cwd()): string {
  const lines: string[] = [];
  const formats = Object.entries(report.byFormat).map(([format, count]) => `${format} ${count}`).join(', ');
  lines.push(`${report.tasks} tasks (${formats}); ${report.errors.length} invalid files; ${report.runnable} runnable`);
  if (report.windowsOnly) lines.push(`${report.windowsOnly} tasks are written for Windows and cannot run on the Linux desktop`);
  lines.push('', 'By domain:');
  for (const [domain, count] of Object.entries(report.byDomain).sort((a, b) => b[1] - a[1])) lines.push(`  ${domain.padEnd(32)} ${count}`);
  const sections = [
    ['steps', 'Setup steps', 'not implemented'],
    ['getters', 'Getters', 'not implemented'],
    ['metrics', 'Metrics', 'not implemented'],
    ['programs', 'Programs the tasks run in the desktop', 'not in the desktop image'],
  ] as const;
  for (const [kind, title, missingMeans] of sections) {
    const rows = report.usage[kind];
    const missing = rows.filter((row) => !row.implemented).length;
    lines.push('', `${title} (${rows.length} in use, ${missing} ${missingMeans}):`);
    for (const row of rows) {
      lines.push(`  ${row.implemented ? 'ok     ' : 'MISSING'} ${row.name.padEnd(44)} ${row.tasks} tasks`);
      if (row.reason) lines.push(`          ${row.reason}`);
      if (row.files) lines.push(`          in ${listFiles(row.files, cwd)}`);
    }
  }
  if (report.files) lines.push(...formatFilesStatus(report.files, cwd));
  if (report.goldOnly.length) {
    lines.push('', `Gold-only tasks (${report.goldOnly.length}: the checker wants text only a gold file holds, so no honest solution passes):`);
    for (const task of report.goldOnly) lines.push(`  ${relative(cwd, task.file)}: ${task.reason}`);
  }
  if (report.errors.length) {
    lines.push('', 'Invalid files:');
    for (const error of report.errors) {
      const where = error.line ? `:${error.line}:${error.column}` : '';
      lines.push(`  ${relative(cwd, error.file)}${where}${error.path ? ` at ${error.path}` : ''}: ${error.message}`);
    }
  }
  return lines.join('\n');
}

/**
 * Whether some task uses a setup step, getter or metric deskbench does not implement, or runs a program the desktop
 * lacks (`--strict` fails on it).
 */
export function usesUnimplemented(report: CheckReport): boolean {
  return Object.values(report.unsupported).some((names) => Object.keys(names).length > 0);
}

/** The first few files, relative to the cwd, then "and N more". */
function listFiles(files: readonly string[], cwd: string, shown = 3): string {
  const named = files.slice(0, shown).map((file) => relative(cwd, file)).join(', ');
  return files.length > shown ? `${named} and ${files.length - shown} more` : named;
}
