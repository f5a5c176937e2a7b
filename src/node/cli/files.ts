// `deskbench files lock|pull|pack|unpack`: the files the tasks download, locked, fetched ahead of a run, and carried
// to a machine without the network. Argument handling only; the work is src/files/'s.
import { relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { lockTaskFiles } from '../../files/lock.ts';
import { type FilesLock, readLock, writeLock } from '../../files/lockfile.ts';
import { effectiveMirror } from '../../files/mirror.ts';
import { packFiles, unpackFiles } from '../../files/pack.ts';
import { PackError } from '../../files/errors.ts';
import { formatBytes } from '../../files/progress-bar.ts';
import { DEFAULT_CONCURRENCY, type PullItem, type PullResult, checkCache, pullFiles } from '../../files/pull.ts';
import { taskUrls } from '../../files/task-urls.ts';
import { loadTasks } from '../../adapters/load.ts';
import { ConfigError, type FilesSettings, defaultFilesSettings, tasksFromVitestConfig } from './check.ts';
import { DeskbenchError, type ErrorCode } from '../../errors.ts';

export const FILES_USAGE = `       deskbench files lock [paths…] [--pin] [--update] [--prune] [common options]
       deskbench files pull [paths…] [--check] [common options]
       deskbench files pack <out.tar.zst|out.tar.gz> [common options]
       deskbench files unpack <archive> [common options]

  files   The files the tasks download (setup download steps, cloud_file getters, scripts given as URLs).
          Paths select tasks as for check (default: the tasks of the deskbench plugin in the vitest config).
    lock    fetch every URL the tasks use once, into the download cache, and record each (sha256, size, content
            type, the tasks using it, the date) in deskbench-files.lock.json; commit that file. URLs already
            locked keep their entry.
            --pin     record the dataset commit a Hugging Face URL (…/resolve/main/…) was taken from (its
                      X-Repo-Commit), so that runs fetch that commit's file however main moves
            --update  fetch and record again the URLs already locked
            --prune   drop the entries of URLs no selected task uses
    pull    fetch the locked files (or, without a lock, the tasks' files) into the cache ahead of a run, several
            at once, resuming interrupted downloads, retrying with back-off, each checked against the lock.
            --check   only check the cache against the lock: fetch nothing (exit 1 unless every file is there
                      and is the locked file)
    pack    write every locked file, checked, with the lock, into one archive (.tar.zst, .tar.gz or .tar)
    unpack  put an archive's files into the cache, each checked against the packed lock; writes the packed lock
            as the project's lock when it has none
    common options:
            --config file     the vitest config to read (default: vitest.config.* here)
            --lock file       the lock (default: the plugin's filesLock, else deskbench-files.lock.json)
            --cache-dir dir   the download cache (default: the plugin's cacheDir, else .cache/deskbench)
            --concurrency n   downloads at once (default ${DEFAULT_CONCURRENCY})
          The plugin's filesMirror and DESKBENCH_FILES_MIRROR rewrite URL prefixes (see the README). Progress goes
          to stderr: a bar on a terminal, a line every few seconds otherwise. Exit codes: 0 done; 1 some file
          failed, changed upstream or is missing; 2 usage error.`;

const COMMON = {
  config: { type: 'string' },
  lock: { type: 'string' },
  'cache-dir': { type: 'string' },
  concurrency: { type: 'string' },
} as const;

const SUBCOMMAND_OPTIONS = {
  lock: { ...COMMON, pin: { type: 'boolean', default: false }, update: { type: 'boolean', default: false }, prune: { type: 'boolean', default: false } },
  pull: { ...COMMON, check: { type: 'boolean', default: false } },
  pack: COMMON,
  unpack: COMMON,
} as const;

type Subcommand = keyof typeof SUBCOMMAND_OPTIONS;

/** A usage error: exit code 2. */
class UsageError extends DeskbenchError {
  override readonly code: ErrorCode = 'DESKBENCH_USAGE';
}

export async function filesCommand(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  try {
    if (!sub || !(sub in SUBCOMMAND_OPTIONS)) throw new UsageError(sub ? `unknown subcommand "${sub}"` : 'which one: lock, pull, pack or unpack?');
    const parsed = parseArgs({ args: rest, allowPositionals: true, options: SUBCOMMAND_OPTIONS[sub as Subcommand] });
    const values = parsed.values as Record<string, string | boolean | undefined>;
    const concurrency = values.concurrency === undefined ? DEFAULT_CONCURRENCY : Number(values.concurrency);
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new UsageError(`--concurrency ${values.concurrency}: expected a whole number, 1 or more`);
    const context = { values, positionals: parsed.positionals, concurrency };
    if (sub === 'lock') return await lockCommand(context);
    if (sub === 'pull') return await pullCommand(context);
    if (parsed.positionals.length !== 1) throw new UsageError(`${sub} takes one archive path (got ${parsed.positionals.length})`);
    return sub === 'pack' ? await packCommand(context) : await unpackCommand(context);
  } catch (error) {
    if (error instanceof UsageError || error instanceof ConfigError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      console.error(`deskbench files${sub ? ` ${sub}` : ''}: ${(error as Error).message}\n\nusage:\n${FILES_USAGE}`);
      return 2;
    }
    console.error(`deskbench files ${sub}: ${(error as Error).message}`);
    return 1;
  }
}

interface Context {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
  concurrency: number;
}

/** The project's settings (the vitest config's plugin, or the defaults), with the flags over them. */
async function settingsOf(context: Context, needTasks: boolean): Promise<{ settings: FilesSettings; tasks: string[] }> {
  const cwd = process.cwd();
  let settings = defaultFilesSettings(cwd);
  let tasks = context.positionals;
  const fromConfig = await tasksFromVitestConfig(cwd, context.values.config as string | undefined).catch((error: unknown) => {
    // Without a config the defaults do, unless the tasks must come from it.
    if (error instanceof ConfigError && (!needTasks || tasks.length) && !context.values.config) return undefined;
    throw error;
  });
  if (fromConfig) {
    settings = fromConfig.files;
    if (!tasks.length) tasks = fromConfig.tasks;
  }
  if (typeof context.values.lock === 'string') settings = { ...settings, lock: resolve(cwd, context.values.lock) };
  if (typeof context.values['cache-dir'] === 'string') settings = { ...settings, cacheDir: resolve(cwd, context.values['cache-dir']) };
  return { settings, tasks };
}

function loadSelected(paths: string[]) {
  const { tasks, errors } = loadTasks(paths);
  for (const error of errors) console.error(`skipped: ${error.message}`);
  return tasks;
}

const shown = (path: string) => (relative(process.cwd(), path).startsWith('..') ? path : relative(process.cwd(), path));

async function lockCommand(context: Context): Promise<number> {
  const { settings, tasks: paths } = await settingsOf(context, true);
  const tasks = loadSelected(paths);
  const existing = readLock(settings.lock);
  const summary = await lockTaskFiles(tasks, existing, {
    cacheDir: settings.cacheDir,
    mirror: effectiveMirror(settings.mirror),
    concurrency: context.concurrency,
    pin: context.values.pin === true,
    update: context.values.update === true,
    prune: context.values.prune === true,
    progress: process.stderr,
  });
  writeLock(settings.lock, summary.lock);
  const fetched = summary.fetched.filter((result) => result.status === 'fetched');
  const bytes = fetched.reduce((total, result) => total + (result.size ?? 0), 0);
  const usedBy = tasks.filter((task) => taskUrls(task).length > 0).length;
  console.log(`${shown(settings.lock)}: ${Object.keys(summary.lock.files).length} URLs locked; ${usedBy} of ${tasks.length} tasks download files`);
  console.log(`  ${fetched.length} fetched now (${formatBytes(bytes)}), ${summary.kept} kept as they were${summary.pruned.length ? `, ${summary.pruned.length} pruned` : ''}`);
  const pinned = fetched.filter((result) => summary.lock.files[result.url]?.source).length;
  if (context.values.pin) console.log(`  ${pinned} pinned to a commit${summary.unpinned.length ? `; ${summary.unpinned.length} not (their answers named no X-Repo-Commit)` : ''}`);
  return reportFailures(summary.fetched);
}

/** Prints the files that failed or changed; exit code 1 when there are any. */
function reportFailures(results: readonly PullResult[]): number {
  const bad = results.filter((result) => result.status === 'failed' || result.status === 'changed');
  for (const result of bad) console.error(`${result.status === 'changed' ? 'CHANGED' : 'FAILED '} ${result.error}`);
  if (bad.length) console.error(`${bad.length} of ${results.length} files not ready`);
  return bad.length ? 1 : 0;
}

async function pullCommand(context: Context): Promise<number> {
  const explicit = context.positionals.length > 0;
  const { settings, tasks: paths } = await settingsOf(context, false);
  const lock = readLock(settings.lock);
  const items = pullItems(lock, explicit || !lock ? loadSelected(paths) : undefined);
  if (!lock) console.error(`no lock at ${shown(settings.lock)}: the files are fetched but not checked (deskbench files lock records them)`);
  if (context.values.check) {
    const checks = await checkCache(items, settings.cacheDir, context.concurrency);
    const problems = checks.filter((check) => check.status !== 'ok');
    for (const check of problems) console.error(check.status === 'missing' ? `MISSING ${check.url}` : `CHANGED ${check.error}`);
    const missing = problems.filter((check) => check.status === 'missing').length;
    console.log(`${shown(settings.cacheDir)}: ${checks.length - problems.length} of ${checks.length} files ready; ${missing} missing, ${problems.length - missing} changed`);
    return problems.length ? 1 : 0;
  }
  const results = await pullFiles(items, {
    cacheDir: settings.cacheDir,
    mirror: effectiveMirror(settings.mirror),
    concurrency: context.concurrency,
    progress: process.stderr,
    log: (message) => console.error(message),
  });
  const fetched = results.filter((result) => result.status === 'fetched');
  const resumed = fetched.filter((result) => (result.resumedFrom ?? 0) > 0).length;
  const bytes = fetched.reduce((total, result) => total + (result.size ?? 0), 0);
  const cached = results.filter((result) => result.status === 'cached').length;
  console.log(`${shown(settings.cacheDir)}: ${fetched.length} fetched (${formatBytes(bytes)}${resumed ? `, ${resumed} resumed` : ''}), ${cached} already cached${lock ? ', all checked against the lock' : ''}`);
  return reportFailures(results);
}

/** What to pull: the lock's URLs, or the tasks' (each with its lock entry when locked). */
function pullItems(lock: FilesLock | undefined, tasks: ReturnType<typeof loadSelected> | undefined): PullItem[] {
  const urls = tasks ? [...new Set(tasks.flatMap(taskUrls))] : Object.keys(lock?.files ?? {});
  return urls.map((url) => ({ url, entry: lock?.files[url] }));
}

async function packCommand(context: Context): Promise<number> {
  const { settings } = await settingsOf(context, false);
  const lock = readLock(settings.lock);
  if (!lock) throw new PackError(`no lock at ${shown(settings.lock)}: run deskbench files lock first`);
  const out = resolve(context.positionals[0]);
  const summary = await packFiles(lock, settings.cacheDir, out, process.stderr);
  console.log(`${shown(out)}: ${summary.files} files, ${formatBytes(summary.bytes)} → ${formatBytes(summary.archiveBytes)} packed, with the lock`);
  return 0;
}

async function unpackCommand(context: Context): Promise<number> {
  const { settings } = await settingsOf(context, false);
  const archive = resolve(context.positionals[0]);
  const summary = await unpackFiles(archive, settings.cacheDir, { path: settings.lock, lock: readLock(settings.lock) }, process.stderr);
  console.log(`${shown(settings.cacheDir)}: ${summary.files} files (${formatBytes(summary.bytes)}) unpacked, each checked against the packed lock`);
  if (summary.wroteLock) console.log(`${shown(summary.wroteLock)}: the packed lock (the project had none)`);
  for (const url of summary.differsFromProjectLock) console.error(`DIFFERS ${url}: the packed file is not the one ${shown(settings.lock)} names; tasks using it will fail`);
  return summary.differsFromProjectLock.length ? 1 : 0;
}
