// The vitest plugin: every selected task file becomes one test module, generated in Vite's load hook, so
// `vitest run path/to/task.json`, `vitest list`, `--tags-filter`, `--shard` and watch mode work as for any test.
// The module names its tests and calls the worker runtime with the task file (generate.ts); what the run needs beyond
// that goes to the workers once, in the payload (payload.ts, src/contract/payload.ts).
import { realpathSync } from 'node:fs';
import { extname, isAbsolute, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
// vitest/config re-exports vite's Plugin type with vitest's `configureVitest` hook added (vite is vitest's dependency).
import { configDefaults, type Plugin } from 'vitest/config';
import type { Reporter, TestProject, Vitest } from 'vitest/node';

import { registerConfiguredAgent } from '../../agent/configured.ts';
import { InternalError, OptionsError } from '../../errors.ts';
import { PAYLOAD_KEY, type WorkerPayload } from '../../contract/payload.ts';
import { currentRunId } from '../../desktop/run-id.ts';
import { LOCKFILE_NAME, readLock } from '../../files/lockfile.ts';
import { effectiveMirror } from '../../files/mirror.ts';
import { isPathSpec, moduleFile } from '../../shared/module-spec.ts';
import { type Solutions, loadSolutions, solutionFileFor } from '../../solutions/load.ts';
import { MissingTaskPathError, TaskFileError } from '../../task/errors.ts';
import { benchmarkAdapters } from '../../adapters/index.ts';
import { type LoadResult, loadTasks, readTaskFile } from '../../adapters/load.ts';
import { FIXED_TAGS, describeTag, tagsOf } from '../../task/tags.ts';
import { DeskbenchReporter } from '../report/reporter.ts';
import { invalidTaskModule, moduleCacheKey, taskModule } from './generate.ts';
import { type DeskbenchOptions, type PluginApi, type ResolvedOptions, recordedOptions, resolveOptions, runSecrets } from './options.ts';
import { agentProblems, workerPayload } from './payload.ts';

export type { DeskbenchOptions } from './options.ts';

/** What the config hook finds, for the hooks after it. */
interface Selection {
  root: string;
  /** The options, paths absolute against the vitest root. */
  options: ResolvedOptions;
  tasks: LoadResult;
  solutions: Solutions;
  /**
   * Files that are tests (task files, and files whose errors become failing tests), as given, by the id vite gives
   * their module: that path and its real one, since vite resolves links (a task path through a symlink comes back as
   * the real file; the generated module must still name the file as given: the worker finds it so).
   */
  testFileById: Map<string, string>;
}

export function deskbench(userOptions: DeskbenchOptions): Plugin {
  const resolved = resolveOptions(userOptions);
  // An Agent object cannot cross to the workers: it is filed by name, and found there by evaluating the config again.
  if (typeof resolved.agent !== 'string') registerConfiguredAgent(resolved.agent);
  let selection: Selection | undefined;
  /** The project's config file: an inline project's is the one it extends (the root one by default), or none. */
  let configFile: string | undefined;
  let extensionFiles: Promise<string[]> | undefined;

  return {
    name: 'deskbench',
    enforce: 'pre',
    // Read by `deskbench check` without paths (src/node/cli/check.ts): the tasks as the user wrote them.
    api: {
      deskbench: {
        tasks: resolved.tasks,
        extensions: resolved.extensions,
        cacheDir: resolved.cacheDir,
        filesLock: resolved.filesLock ?? LOCKFILE_NAME,
        filesMirror: resolved.filesMirror,
        // `deskbench rerun` compares the options a run recorded with these.
        recordedOptions: recordedOptions(resolved),
      } satisfies PluginApi,
    },

    config(config) {
      selection = select(resolved, resolve(config.root ?? process.cwd()));
      const { root, options, testFileById } = selection;
      const globalSetup = fileURLToPath(new URL(`./global-setup${extname(import.meta.url)}`, import.meta.url));
      // The task files join the project's own tests: vitest's default include stays when the project sets none
      // (vite merges the arrays when it does).
      const include = [...(config.test?.include ? [] : configDefaults.include), ...[...new Set(testFileById.values())].map((file) => relative(root, file))];
      // Watch mode reruns the tasks when the agent module or an extension changes, or a module either imports (vitest
      // follows importers up to a trigger); vitest's own triggers stay, as include's defaults do.
      const userFiles = [options.agent, ...options.extensions].filter((spec): spec is string => typeof spec === 'string' && isAbsolute(spec));
      const forceRerunTriggers = [...(config.test?.forceRerunTriggers ? [] : configDefaults.forceRerunTriggers), ...userFiles];
      return { test: { include, globalSetup: [globalSetup], forceRerunTriggers } } as never;
    },

    configResolved(config) {
      configFile = config.configFile || undefined;
    },

    async configureVitest({ project, vitest, defineCacheKeyGenerator }) {
      const { root, options, tasks, solutions, testFileById } = selected(selection);
      const importer = configFile ?? resolve(root, 'vitest.config.ts');
      // A package name is resolved as the config file would resolve it, not from a task file's folder.
      const resolveSpec = async (spec: string) => (await project.vite.environments.ssr.pluginContainer.resolveId(spec, importer))?.id ?? spec;
      const configFiles = [...new Set([configFile, vitest.vite.config.configFile].filter((file): file is string => !!file))];
      const payload = await workerPayload({ runId: currentRunId(), options, tasks: tasks.tasks, solutions, configFiles, resolveSpec });
      project.provide(PAYLOAD_KEY, payload);
      countTaskRuns(vitest, project, payload, testFileById);
      extensionFiles ??= Promise.all(options.extensions.map((spec) => (isPathSpec(spec) ? spec : resolveSpec(spec))));
      const cacheKey = moduleCacheKey(options.repeats, await extensionFiles);
      defineCacheKeyGenerator(({ id }) => (testFileById.has(id.split('?')[0]) ? `deskbench-${cacheKey}` : undefined));
      installReporter(vitest, options, resolved);
      const defined = new Set(project.config.tags.map((tag) => tag.name));
      // Every format's tag (its adapter says what it means), the fixed ones, and the tasks' own.
      const formats = new Map(benchmarkAdapters().map((adapter) => [adapter.name, adapter.description]));
      for (const name of new Set([...formats.keys(), ...Object.keys(FIXED_TAGS), ...tasks.tasks.flatMap(tagsOf)])) {
        if (!defined.has(name)) project.config.tags.push({ name, description: formats.get(name) ?? describeTag(name, tasks.tasks) });
      }
    },

    async load(id) {
      const { options, tasks, solutions, testFileById } = selected(selection);
      const file = testFileById.get(id.split('?')[0]);
      if (!file) return null;
      this.addWatchFile(file);
      const parsed = readTaskFile(file, { explicit: true });
      let code: string;
      if (parsed.kind === 'task') {
        const solution = solutionFileFor(parsed.task, solutions, options.solutionVariant);
        if (solution) this.addWatchFile(solution.file);
        code = taskModule(parsed.task, options.repeats, (await extensionFiles) ?? []);
      } else if (parsed.kind === 'error') code = invalidTaskModule(file, [parsed.error]);
      else {
        // An index file whose entries did not resolve: its errors were collected when the selection was made.
        const errors = tasks.errors.filter((error) => error.file === file);
        code = invalidTaskModule(file, errors.length ? errors : [new TaskFileError(file, '', 'not a task file')]);
      }
      return { code, moduleType: 'js' } as never;
    },
  };
}

function selected(selection: Selection | undefined): Selection {
  if (!selection) throw new InternalError('deskbench(): the config hook did not run before the others');
  return selection;
}

/** The options made absolute, checked, and the tasks and solutions they select; throws what stops the run. */
function select(resolved: ResolvedOptions, root: string): Selection {
  const options = withAbsolutePaths(resolved, root);
  failFast(options, root);
  const solutions = loadSolutions(options.solutions);
  const tasks = loadTasks(Array.isArray(options.tasks) ? options.tasks : [options.tasks], { cwd: root });
  // A path that names nothing stops the run before it starts (it would otherwise vanish from the selection).
  const missing = tasks.errors.filter((error) => error instanceof MissingTaskPathError);
  if (missing.length) throw new OptionsError(`deskbench(): ${missing.map((error) => error.message).join('\n')}`);
  const testFiles = new Set([...tasks.tasks.map((task) => task.file), ...tasks.errors.map((error) => error.file)]);
  if (testFiles.size === 0) {
    throw new OptionsError(`deskbench(): no task files found for tasks ${JSON.stringify(options.tasks)} (relative to ${root})`);
  }
  const testFileById = new Map<string, string>();
  for (const file of testFiles) {
    testFileById.set(file, file);
    testFileById.set(realpathOr(file), file);
  }
  return { root, options, tasks, solutions, testFileById };
}

function realpathOr(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

/** Options that cannot work stop the run at once, with one message, before any desktop starts. */
function failFast(options: ResolvedOptions, root: string): void {
  // A lock or a DESKBENCH_FILES_MIRROR that cannot be read would fail every task that downloads: say so once.
  try {
    if (options.filesLock) readLock(options.filesLock);
    effectiveMirror(options.filesMirror);
  } catch (error) {
    throw new OptionsError(`deskbench(): ${(error as Error).message}`);
  }
  const problem = agentProblems(options.agent, root);
  if (problem) throw new OptionsError(`deskbench(): ${problem}`);
}

/**
 * The task tests this run takes, counted once vitest knows its test files (file filters and --shard applied): a run of
 * two of a project's forty tasks then starts no warm desktop that nobody takes. vitest announces the files to the
 * reporters before it starts the global setups, which read the count (global-setup.ts).
 */
function countTaskRuns(vitest: Vitest, project: TestProject, payload: WorkerPayload, testFileById: Map<string, string>): void {
  const counter: Pick<Reporter, 'onTestRunStart'> = {
    onTestRunStart(specifications) {
      const files = specifications.filter((spec) => spec.project === project && testFileById.has(spec.moduleId)).length;
      project.provide(PAYLOAD_KEY, { ...payload, taskRuns: files * payload.repeats });
    },
  };
  (vitest.config.reporters as unknown[]).push(counter);
}

const REPORTER_PACKAGE = 'deskbench/reporter';
const REPORTER_MODULE = fileURLToPath(new URL(`../report/reporter${extname(import.meta.url)}`, import.meta.url));

/** The deskbench reporter, once, beside whatever reporters the user chose (CLI or config). */
function installReporter(vitest: Vitest, options: ResolvedOptions, resolved: ResolvedOptions): void {
  const reporters = vitest.config.reporters as unknown[];
  // Listed by the package's name or as this module's file (vitest keeps [name, options] pairs), or as an instance.
  const listed = (reporter: unknown) => reporter instanceof DeskbenchReporter || (Array.isArray(reporter) && [REPORTER_PACKAGE, REPORTER_MODULE].includes(String(reporter[0])));
  if (reporters.some(listed)) return;
  reporters.push(new DeskbenchReporter({ resultsDir: options.resultsDir, secrets: runSecrets(options), recordOptions: recordedOptions(resolved), filesLock: options.filesLock }));
}

/** Workers may run in another folder: paths in the options are made absolute against the vitest root. */
function withAbsolutePaths(options: ResolvedOptions, root: string): ResolvedOptions {
  const files = typeof options.files === 'string' ? resolve(root, options.files) : options.files;
  const agent = typeof options.agent === 'string' ? (moduleFile(options.agent, root) ?? options.agent) : options.agent;
  const extensions = options.extensions.map((spec) => moduleFile(spec, root) ?? spec);
  const solutions = options.solutions.map((folder) => resolve(root, folder));
  const filesLock = resolve(root, options.filesLock ?? LOCKFILE_NAME);
  return { ...options, solutions, resultsDir: resolve(root, options.resultsDir), cacheDir: resolve(root, options.cacheDir), files, filesLock, agent, extensions };
}

export default deskbench;
