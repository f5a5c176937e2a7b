// The `deskbench` command line.
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { moduleFile } from '../module-spec.ts';
import { checkTasks, formatCheckReport } from './check.ts';

const USAGE = `usage: deskbench check [paths…] [--json] [--extensions module]…
       deskbench image [--docker] [--force]

  check   Load and validate every task file under the paths (folders, globs, task files or index files such as
          test_all.json; default: the current folder). Prints counts per format and domain, every validation
          error, which setup steps, getters and metrics in use deskbench implements, and how many tasks are
          runnable. Exits 1 when any file fails validation.
          --json  print one JSON object instead (tasks, errors, runnable, byFormat, byDomain, unsupported, usage)
          --extensions module
                  import a module that adds setup steps, getters or metrics (defineSetupStep, defineGetter,
                  defineMetric) first, so they count as implemented; repeat it for several modules
                  (the plugin's extensions option). Imported by Node, not vitest: TypeScript that
                  type stripping handles (no enums; imports with their file extension)

  image   Build the desktop image (deskbench/desktop:latest, or DESKBENCH_IMAGE) into the local Docker engine. Nothing
          is pulled: without a registry the base is made with debootstrap. Quick when the image is up to date.
          --docker  first install and start Debian's Docker engine when none answers (as root)
          --force   rebuild even when the image is up to date

Run the benchmark itself with vitest: see the README.`;

/** deskbench's own folder: scripts/, docker/ and server/ ship with the package. */
const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

function buildImage(args: string[]): number {
  let parsed;
  try {
    parsed = parseArgs({ args, options: { docker: { type: 'boolean', default: false }, force: { type: 'boolean', default: false } } });
  } catch (error) {
    console.error(`deskbench image: ${(error as Error).message}\n\n${USAGE}`);
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
    console.log(USAGE);
    return command ? 0 : 2;
  }
  if (command === 'image') return buildImage(rest);
  if (command !== 'check') {
    console.error(`deskbench: unknown command "${command}"\n\n${USAGE}`);
    return 2;
  }
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      allowPositionals: true,
      options: { json: { type: 'boolean', default: false }, extensions: { type: 'string', multiple: true, default: [] } },
    });
  } catch (error) {
    console.error(`deskbench check: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  for (const extension of parsed.values.extensions) {
    const file = moduleFile(extension, process.cwd());
    const target = file ? pathToFileURL(file).href : extension;
    try {
      await import(target);
    } catch (error) {
      console.error(`deskbench check: extension ${extension} could not be imported: ${(error as Error).message}`);
      return 2;
    }
  }
  const paths = parsed.positionals.length ? parsed.positionals : ['.'];
  const report = checkTasks(paths);
  if (parsed.values.json) console.log(JSON.stringify(report, null, 2));
  else console.log(formatCheckReport(report));
  return report.errors.length ? 1 : 0;
}
