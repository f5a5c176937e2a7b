// The vitest plugin: every selected task file becomes one test module with one test, generated in Vite's load hook,
// so `vitest run path/to/task.json`, `vitest list`, `--tags-filter`, `--shard` and watch mode work as for any test.
import { createHash } from 'node:crypto';
import { extname, isAbsolute, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
// vitest/config re-exports vite's Plugin type with vitest's `configureVitest` hook added (vite is vitest's dependency).
import { configDefaults, type Plugin } from 'vitest/config';

import { LOCKFILE_NAME, readLock } from '../../files/lockfile.ts';
import { effectiveMirror } from '../../files/mirror.ts';
import { MissingTaskPathError, TaskFileError } from '../../task/errors.ts';
import { loadTasks, readTaskFile, type LoadResult } from '../../task/load.ts';
import { GENERATOR_FINGERPRINT, invalidTaskModule, taskModule, type UserModulePaths } from './generate.ts';
import { type DeskbenchOptions, SECRET_OPTIONS_KEY, TASK_RUNS_KEY, type SecretOptions, type WorkerOptions, recordedOptions, resolveOptions, runSecrets, splitSecretOptions } from './options.ts';
import { registerConfiguredAgent } from '../../agent/configured.ts';
import type { PluginApi } from '../cli/check.ts';
import { BUILTIN_AGENTS, agentSpecProblem } from '../../agent/resolve.ts';
import { moduleFile } from '../../shared/module-spec.ts';
import { DeskbenchReporter } from '../report/reporter.ts';
import { type Solutions, loadSolutions, solutionFileFor, withSolution } from '../../solutions/load.ts';
import { FIXED_TAGS, describeTag, tagsOf } from '../../task/tags.ts';

export type { DeskbenchOptions } from './options.ts';

declare module 'vitest' {
  interface ProvidedContext {
    'deskbench:secret-options': SecretOptions;
    /** Task tests in the run (task files × repeats): the most desktops its warm pool starts. */
    'deskbench:task-runs': number;
  }
}

export function deskbench(userOptions: DeskbenchOptions): Plugin {
  const resolved = resolveOptions(userOptions);
  // An agent object cannot reach the workers as JSON: it is filed by name, and found there by evaluating the config
  // file again (src/agent/configured.ts).
  const agent = typeof resolved.agent === 'string' ? resolved.agent : registerConfiguredAgent(resolved.agent);
  let options: WorkerOptions = { ...resolved, agent };
  /** The project's config file and the root one, which the workers evaluate to find an agent object. */
  let configFile: string | undefined;
  let rootConfigFile: string | undefined;
  let root = process.cwd();
  let userModules: Promise<UserModulePaths> | undefined;
  let selection: LoadResult = { tasks: [], errors: [], indexFiles: [] };
  let solutions: Solutions = new Map();
  /** Files that are tests: task files and files whose errors become failing tests. */
  const testFiles = new Set<string>();

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
      root = resolve(config.root ?? process.cwd());
      options = withAbsolutePaths(options, root);
      // One id per run, inherited by the workers: containers carry it as a label, so the global teardown removes
      // exactly this run's leftovers (after a crash or Ctrl-C too).
      process.env.DESKBENCH_RUN_ID ||= `run-${Date.now().toString(36)}-${process.pid}`;
      failFast(options, root);
      solutions = loadSolutions(options.solutions);
      selection = loadTasks(Array.isArray(options.tasks) ? options.tasks : [options.tasks], { cwd: root });
      // A path that names nothing stops the run before it starts (it would otherwise vanish from the selection).
      const missing = selection.errors.filter((error) => error instanceof MissingTaskPathError);
      if (missing.length) throw new Error(`deskbench(): ${missing.map((error) => error.message).join('\n')}`);
      for (const task of selection.tasks) testFiles.add(task.file);
      for (const error of selection.errors) testFiles.add(error.file);
      const taskFiles = [...testFiles].map((file) => relative(root, file));
      if (taskFiles.length === 0) {
        throw new Error(`deskbench(): no task files found for tasks ${JSON.stringify(options.tasks)} (relative to ${root})`);
      }
      // For the global setup's one check of the engine and the image (global-setup.ts).
      process.env.DESKBENCH_DESKTOP_PROVIDER = options.desktop.provider;
      if (options.desktop.provider === 'docker' && options.desktop.image) process.env.DESKBENCH_DESKTOP_IMAGE = options.desktop.image;
      const globalSetup = fileURLToPath(new URL(`./global-setup${extname(import.meta.url)}`, import.meta.url));
      // The task files join the project's own tests: vitest's default include stays when the project sets none
      // (vite merges the arrays when it does).
      const include = [...(config.test?.include ? [] : configDefaults.include), ...taskFiles];
      // Watch mode reruns the tasks when the agent module or an extension changes, or a module either imports (vitest
      // follows importers up to a trigger); vitest's own triggers stay, as include's defaults do.
      const userFiles = [options.agent, ...options.extensions].filter((spec): spec is string => typeof spec === 'string' && isAbsolute(spec));
      const forceRerunTriggers = [...(config.test?.forceRerunTriggers ? [] : configDefaults.forceRerunTriggers), ...userFiles];
      return { test: { include, globalSetup: [globalSetup], forceRerunTriggers } } as never;
    },

    configResolved(config) {
      // For an inline project: the config file it extends (the root one by default), or none with `extends: false`.
      configFile = config.configFile || undefined;
    },

    configureVitest({ project, vitest, defineCacheKeyGenerator }) {
      // Secrets (agentOptions, a remote desktop's token) travel to the workers over vitest's IPC, never in the
      // generated modules that vitest caches on disk (generate.ts).
      const { plain, secret } = splitSecretOptions(options);
      project.provide(SECRET_OPTIONS_KEY, secret);
      project.provide(TASK_RUNS_KEY, selection.tasks.length * options.repeats);
      // The generated code embeds the other options: a changed option (agent, resultsDir, …) must not reuse a cached module.
      // The folder vitest runs in too: the test's meta names its task file relative to it.
      rootConfigFile = vitest.vite.config.configFile || undefined;
      const optionsKey = createHash('sha256').update(JSON.stringify(plain)).update(GENERATOR_FINGERPRINT).update(`${configFile}|${rootConfigFile}|${process.cwd()}`).digest('hex').slice(0, 16);
      // A shipped solution is part of the generated code too: its file's content joins the key.
      const solutionKey = (file: string) => {
        const task = selection.tasks.find((candidate) => candidate.file === file);
        const found = task && solutionFileFor(task, solutions, options.solutionVariant);
        return found ? `-${createHash('sha256').update(JSON.stringify(found.solution)).digest('hex').slice(0, 12)}` : '';
      };
      defineCacheKeyGenerator(({ id }) => (testFiles.has(id.split('?')[0]) ? `deskbench-${optionsKey}${solutionKey(id.split('?')[0])}` : undefined));
      // Install the deskbench reporter once, beside whatever reporters the user chose (CLI or config).
      const reporters = vitest.config.reporters as unknown[];
      if (!reporters.some((r) => r instanceof DeskbenchReporter || (Array.isArray(r) && String(r[0]).includes('deskbench/reporter')))) {
        reporters.push(
          new DeskbenchReporter({ resultsDir: options.resultsDir, secrets: runSecrets(options), recordOptions: recordedOptions(resolved), filesLock: options.filesLock }),
        );
      }
      const defined = new Set(project.config.tags.map((tag) => tag.name));
      const names = new Set([...Object.keys(FIXED_TAGS), ...selection.tasks.flatMap(tagsOf)]);
      for (const name of names) {
        if (!defined.has(name)) project.config.tags.push({ name, description: describeTag(name, selection.tasks) });
      }
    },

    async load(id) {
      const file = id.split('?')[0];
      if (!testFiles.has(file)) return null;
      this.addWatchFile(file);
      const parsed = readTaskFile(file, { explicit: true });
      let code: string;
      if (parsed.kind === 'task') {
        // Resolved once, as the config file would resolve them: a package name must not be looked up from the task
        // file's folder, which may be outside the project.
        const importer = configFile ?? resolve(root, 'vitest.config.ts');
        userModules ??= resolveUserModules(options, [configFile, rootConfigFile], async (spec) => (await this.resolve(spec, importer))?.id ?? spec);
        const found = solutionFileFor(parsed.task, solutions, options.solutionVariant);
        if (found) this.addWatchFile(found.file);
        code = taskModule(withSolution(parsed.task, solutions, options.solutionVariant), options, await userModules);
      } else if (parsed.kind === 'error') code = invalidTaskModule(file, [parsed.error]);
      else {
        // An index file whose entries did not resolve: its errors were collected when the selection was made.
        const errors = selection.errors.filter((error) => error.file === file);
        code = invalidTaskModule(file, errors.length ? errors : [new TaskFileError(file, '', 'not a task file')]);
      }
      return { code, moduleType: 'js' } as never;
    },
  };
}

/** Options that cannot work stop the run at once, with one message, before any desktop starts. */
function failFast(options: WorkerOptions, root: string): void {
  // A lock or a DESKBENCH_FILES_MIRROR that cannot be read would fail every task that downloads: say so once.
  try {
    if (options.filesLock) readLock(options.filesLock);
    effectiveMirror(options.filesMirror);
  } catch (error) {
    throw new Error(`deskbench(): ${(error as Error).message}`);
  }
  for (const [spec, where] of [[options.agent, 'agent'], [process.env.DESKBENCH_AGENT, 'DESKBENCH_AGENT']] as const) {
    const problem = typeof spec === 'string' && spec ? agentSpecProblem(spec, root) : undefined;
    if (problem) throw new Error(`deskbench(): ${where}: ${problem}`);
  }
}

/** The agent module and extensions as files, and the config files that may register an agent object. */
async function resolveUserModules(
  options: WorkerOptions,
  configFiles: (string | undefined)[],
  resolveSpec: (spec: string) => Promise<string>,
): Promise<UserModulePaths> {
  const agent = typeof options.agent === 'string' && !BUILTIN_AGENTS[options.agent] ? await resolveSpec(options.agent) : undefined;
  const extensions = await Promise.all(options.extensions.map(resolveSpec));
  return { agent, extensions, configFiles: [...new Set(configFiles.filter((file): file is string => !!file))] };
}

/** Workers may run in another folder: paths in the options are made absolute against the vitest root. */
function withAbsolutePaths(options: WorkerOptions, root: string): WorkerOptions {
  const files = typeof options.files === 'string' ? resolve(root, options.files) : options.files;
  const agent = typeof options.agent === 'string' && !BUILTIN_AGENTS[options.agent] ? (moduleFile(options.agent, root) ?? options.agent) : options.agent;
  const extensions = options.extensions.map((spec) => moduleFile(spec, root) ?? spec);
  const solutions = options.solutions.map((folder) => resolve(root, folder));
  const filesLock = resolve(root, options.filesLock ?? LOCKFILE_NAME);
  return { ...options, solutions, resultsDir: resolve(root, options.resultsDir), cacheDir: resolve(root, options.cacheDir), files, filesLock, agent, extensions };
}

export default deskbench;
