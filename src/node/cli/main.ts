// The `deskbench` command line.
import { spawnSync } from 'node:child_process';
import { relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { moduleFile } from '../../shared/module-spec.ts';
import { ConfigError, checkTasks, defaultFilesSettings, formatCheckReport, tasksFromVitestConfig, usesUnimplemented } from './check.ts';

/**
 * The usage text. It quotes every command's own, so it loads every command's module: only when it is printed. A
 * command's module loads when the command runs (verify's pulls in vitest and the engine's client: a check that loaded
 * them all spent twice the time starting).
 */
async function usage(): Promise<string> {
  const [{ FILES_USAGE }, { REPLAY_USAGE }, { VERIFY_USAGE }, { COMPARE_USAGE }, { RERUN_USAGE }] = await Promise.all([
    import('./files.ts'),
    import('./replay.ts'),
    import('./verify.ts'),
    import('./compare.ts'),
    import('./rerun.ts'),
  ]);
  return `usage: deskbench check [paths…] [--json] [--strict] [--extensions module]… [--config file] [--solutions dir]…
       deskbench image [--docker] [--force]
       deskbench verify [paths…] [--json] [--repeats n] [--solutions dir]… [--max-workers n] [--warm n] [--results dir]
                        [--timeout s]
       deskbench replay <trajectories…> [--corpus dir] [--pause s] [--max-steps n] [--max-workers n] [--results dir] [--json]
${FILES_USAGE}
       deskbench compare <results A> <results B> [more…] [--out dir] [--json] [--resamples n] [--seed n]
                         [--ignore-image] [--fail-if-worse]
       deskbench rerun <report.json or results folder> [--json]

  check   Load and validate every task file under the paths (folders, globs, task files or index files such as
          test_all.json; default: the tasks option of the deskbench plugin in the vitest config of the current
          folder, and its extensions). Prints counts per format and domain, every invalid file
          (with the line and the field), which setup steps, getters and metrics in use deskbench implements and
          the files using each one it does not, the programs the tasks run that the desktop lacks, and how many
          tasks are runnable (everything they use implemented, every program they run in the image), and per task
          that downloads files how many of its URLs the files lock names and the download cache holds (the
          plugin's filesLock and cacheDir; without a config ./deskbench-files.lock.json and ./.cache/deskbench). In a folder, every .json file
          that does not parse is invalid, except the inputs inside a task's own folder (<id>/ beside <id>.json).
          Exit codes: 0 every file is valid; 1 some file is invalid (or, with --strict, some task uses a name
          deskbench does not implement or runs a program the desktop lacks); 2 usage error (unknown option, an extension that cannot be imported, no
          path and no vitest config with the deskbench plugin).
          --json    print one JSON object instead (tasks, errors, runnable, byFormat, byDomain, unsupported, usage,
                    goldOnly)
          --strict  also exit 1 when a task uses a setup step, getter or metric deskbench does not implement, or
                  runs a program the desktop image lacks (for CI)
          --extensions module
                  import a module that adds setup steps, getters or metrics (defineSetupStep, defineGetter,
                  defineMetric) first, so they count as implemented; repeat it for several modules
                  (the plugin's extensions option). Imported by Node, not vitest: TypeScript that
                  type stripping handles (no enums; imports with their file extension)
          --config file
                  without paths: the vitest config to read (default: vitest.config.* or vite.config.* here)
          --solutions dir
                  a folder of solution files whose gold_only marks to list: tasks whose checker wants text only a
                  gold file holds, which no honest solution passes (default: deskbench's own solutions/); repeat it
                  for several

  image   Build the desktop image (deskbench/desktop:latest, or DESKBENCH_IMAGE) into the local Docker engine. Nothing
          is pulled: without a registry the base is made with debootstrap. Quick when the image is up to date.
          --docker  first install and start Debian's Docker engine when none answers (as root)
          --force   rebuild even when the image is up to date

${VERIFY_USAGE}

${REPLAY_USAGE}

${COMPARE_USAGE}

${RERUN_USAGE}

Run the benchmark itself with vitest: see the README.`;
}

/** deskbench's own folder: scripts/, docker/ and server/ ship with the package. */
const PACKAGE_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

async function buildImage(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args, options: { docker: { type: 'boolean', default: false }, force: { type: 'boolean', default: false } } });
  } catch (error) {
    console.error(`deskbench image: ${(error as Error).message}\n\n${await usage()}`);
    return 2;
  }
  const script = (name: string, env: Record<string, string> = {}) =>
    spawnSync('bash', [resolve(PACKAGE_ROOT, 'scripts', name)], { stdio: 'inherit', env: { ...process.env, ...env } }).status ?? 1;
  if (parsed.values.docker) {
    const status = script('setup-docker.sh');
    if (status !== 0) return status;
  }
  return script('build-image.sh', parsed.values.force ? { FORCE: '1' } : {});
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    console.log(await usage());
    return command ? 0 : 2;
  }
  // `deskbench <command> --help` (or -h) prints the usage, as `deskbench --help` does.
  if (rest.includes('--help') || rest.includes('-h')) {
    console.log(await usage());
    return 0;
  }
  if (command === 'image') return buildImage(rest);
  if (command === 'verify') return (await import('./verify.ts')).verifyCommand(rest, PACKAGE_ROOT);
  if (command === 'replay') return (await import('./replay.ts')).replayCommand(rest, PACKAGE_ROOT);
  if (command === 'files') return (await import('./files.ts')).filesCommand(rest);
  if (command === 'compare') return (await import('./compare.ts')).compareCommand(rest);
  if (command === 'rerun') return (await import('./rerun.ts')).rerunCommand(rest);
  if (command !== 'check') {
    console.error(`deskbench: unknown command "${command}"\n\n${await usage()}`);
    return 2;
  }
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      allowPositionals: true,
      options: {
        json: { type: 'boolean', default: false },
        strict: { type: 'boolean', default: false },
        extensions: { type: 'string', multiple: true, default: [] },
        config: { type: 'string' },
        solutions: { type: 'string', multiple: true, default: [] },
      },
    });
  } catch (error) {
    console.error(`deskbench check: ${(error as Error).message}\n\n${await usage()}`);
    return 2;
  }
  let paths = parsed.positionals;
  const extensions = [...parsed.values.extensions];
  let files = defaultFilesSettings();
  if (!paths.length) {
    // As `vitest` would run them: the tasks (and extensions) of the deskbench plugin in the project's vitest config.
    try {
      const fromConfig = await tasksFromVitestConfig(process.cwd(), parsed.values.config);
      paths = fromConfig.tasks;
      files = fromConfig.files;
      extensions.push(...fromConfig.extensions.filter((extension) => !extensions.includes(extension)));
      const shown = (path: string) => (relative(process.cwd(), path).startsWith('..') ? path : relative(process.cwd(), path) || '.');
      if (!parsed.values.json) console.log(`tasks of the deskbench plugin in ${shown(fromConfig.configFile)}: ${paths.map(shown).join(', ')}\n`);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      console.error(`deskbench check: ${error.message}`);
      return 2;
    }
  }
  for (const extension of extensions) {
    const file = moduleFile(extension, process.cwd());
    const target = file ? pathToFileURL(file).href : extension;
    try {
      await import(target);
    } catch (error) {
      console.error(`deskbench check: extension ${extension} could not be imported: ${(error as Error).message}`);
      return 2;
    }
  }
  const solutions = parsed.values.solutions.length ? parsed.values.solutions : [resolve(PACKAGE_ROOT, 'solutions')];
  const report = checkTasks(paths, process.cwd(), { solutions, files });
  if (parsed.values.json) console.log(JSON.stringify(report, null, 2));
  else console.log(formatCheckReport(report));
  if (report.errors.length) return 1;
  return parsed.values.strict && usesUnimplemented(report) ? 1 : 0;
}
