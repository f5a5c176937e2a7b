// The run record: what produced a run, complete enough to run it again (report.json `run`, the HTML report's header,
// `deskbench rerun`). deskbench's version and commit, the command line and the environment variables it ran with,
// the plugin's options (secrets masked), the agents, each task file's sha256, the commits of the corpora the tasks
// come from, the desktop images, the host. Built by the reporter in vitest's main process at the end of a run, from
// its own view and from what the workers left in each test's meta (task hashes, agents, images), which blob reports
// keep, so a run merged from shards on other machines still has them.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, realpathSync } from 'node:fs';
import { arch, availableParallelism, release, type } from 'node:os';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentIdentity } from '../../agent/identity.ts';
import type { TaskRecord } from './aggregate.ts';

/** How the run was started: `program` is `vitest`, `deskbench`, or the script Node ran. */
export interface RunCommand {
  program: string;
  args: string[];
  /** The folder it ran in; task files and the agent module are named relative to it. */
  cwd: string;
  /** The environment variables that shape a run (DESKBENCH_*, DOCKER_HOST), secrets masked. */
  env: Record<string, string>;
}

export interface RunRecord {
  deskbench: {
    version: string;
    /** HEAD of deskbench's git checkout, null for an installed package. */
    commit: string | null;
    /** Files of that checkout that differ from its commit (git status), so "commit X" is not claimed for a changed tree. */
    modified: string[];
    /** sha256 of `git diff HEAD` when tracked files changed: tells a file changed again from one changed once. */
    diffSha256?: string;
  };
  command: RunCommand;
  /** `i/N` on a sharded run. */
  shard?: string;
  /** On a run merged from shards (vitest --merge-reports): each shard's command, from the shard reports beside it. */
  shards?: { shard: string; command: RunCommand }[];
  /** The vitest config file, relative to the command's folder. */
  configFile?: string;
  /** The deskbench() options as resolved (defaults filled in), an agent object by name, secrets masked. */
  options?: Record<string, unknown>;
  /** The agents that ran the tasks (one, unless DESKBENCH_AGENT or the options changed between shards). */
  agents: AgentIdentity[];
  /** Each task file (relative to the command's folder) and its sha256. */
  taskFiles: Record<string, string>;
  /** The git checkouts the task files are in: their commit, and the task files that differ from it. */
  corpora: { root: string; commit: string; modified: string[] }[];
  /** The desktop images the tasks ran on. */
  images: { image?: string; imageId?: string; buildHash?: string }[];
  /**
   * The files lock the run checked its downloads against (`deskbench files lock`, deskbench-files.lock.json): its
   * path, relative to the command's folder, and its sha256. Absent when there was no lock.
   */
  filesLock?: { file: string; sha256: string };
  host: { os: string; release: string; arch: string; cpus: number; node: string };
  /** DESKBENCH_RUN_ID: differs on every run. */
  runId?: string;
  recordedAt: string;
}

/** deskbench's own folder (src/node/report/ → the package root). */
export const PACKAGE_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Not part of how the user ran it: the run's id differs on every run, and the record keeps it apart (runId). */
const INTERNAL_VARIABLES = new Set(['DESKBENCH_RUN_ID']);

export interface RunRecordInput {
  records: readonly TaskRecord[];
  agents: readonly AgentIdentity[];
  argv?: readonly string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  configFile?: string;
  options?: Record<string, unknown>;
  /** Where the run looked for its files lock (absolute): recorded with its hash when it exists. */
  filesLock?: string;
  shard?: { index: number; count: number };
  /** A merge run: the shard reports are read from here. */
  mergedFrom?: string;
  /** The run's id (the payload's): its containers' label. */
  runId?: string;
  now?: Date;
}

export function buildRunRecord(input: RunRecordInput): RunRecord {
  const cwd = input.cwd ?? process.cwd();
  const env = input.env ?? process.env;
  const command = commandOf(input.argv ?? process.argv, cwd, env);
  const taskFiles = Object.fromEntries(
    [...new Map(input.records.filter((r) => r.taskFile && r.taskSha256).map((r) => [r.taskFile!, r.taskSha256!]))].sort(([a], [b]) => a.localeCompare(b)),
  );
  const shards = input.mergedFrom ? shardCommands(input.mergedFrom) : undefined;
  return {
    deskbench: deskbenchIdentity(),
    command,
    ...(input.shard ? { shard: `${input.shard.index}/${input.shard.count}` } : {}),
    ...(shards?.length ? { shards } : {}),
    ...(input.configFile ? { configFile: shownPath(input.configFile, cwd) } : {}),
    ...(input.options ? { options: input.options } : {}),
    agents: distinct(input.agents),
    taskFiles,
    corpora: corporaOf(Object.keys(taskFiles).map((file) => resolve(cwd, file)), cwd),
    ...filesLockOf(input.filesLock, cwd),
    images: distinct(input.records.flatMap((r) => (r.desktop ? [{ image: r.desktop.image, imageId: r.desktop.imageId, buildHash: r.desktop.buildHash }] : []))),
    host: hostOf(),
    ...(input.runId ? { runId: input.runId } : {}),
    recordedAt: (input.now ?? new Date()).toISOString(),
  };
}

/** The command line as the user typed it: vitest's and deskbench's entry scripts by name, paths relative to cwd. */
export function commandOf(argv: readonly string[], cwd: string, env: NodeJS.ProcessEnv): RunCommand {
  const script = argv[1] ?? '';
  const name = basename(script);
  const program = /^vitest(\.m?js)?$/.test(name) ? 'vitest' : /^deskbench(\.m?js)?$/.test(name) ? 'deskbench' : shownPath(script, cwd);
  const shaping = Object.entries(env)
    .filter(([key, value]) => value !== undefined && (key === 'DOCKER_HOST' || (key.startsWith('DESKBENCH_') && !INTERNAL_VARIABLES.has(key))))
    .sort(([a], [b]) => a.localeCompare(b)) as [string, string][];
  return { program, args: argv.slice(2), cwd, env: Object.fromEntries(shaping) };
}

/** A path relative to cwd when it is inside it, else as it is. */
function shownPath(path: string, cwd: string): string {
  const shown = relative(cwd, path);
  if (!shown) return '.';
  return !shown.startsWith('..') && !isAbsolute(shown) ? shown : path;
}

function distinct<T>(items: readonly T[]): T[] {
  return [...new Map(items.map((item) => [JSON.stringify(item), item])).values()];
}

/** git's output (trimmed unless `raw`: porcelain lines start with a space), undefined when git fails. */
function git(dir: string, args: string[], raw = false): string | undefined {
  const run = spawnSync('git', ['-C', dir, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  if (run.status !== 0) return undefined;
  return raw ? run.stdout : run.stdout.trim();
}

/** The paths `git status --porcelain` lists (changed, added, deleted, untracked), optionally limited to some files. */
function modifiedFiles(root: string, files: string[] = []): string[] {
  const status = git(root, ['status', '--porcelain', '--', ...files], true);
  return status ? status.split('\n').map((line) => line.slice(3)).filter(Boolean) : [];
}

export function deskbenchIdentity(): RunRecord['deskbench'] {
  let version = 'unknown';
  try {
    version = (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    // a broken install: the commit may still say which
  }
  // Only deskbench's own checkout: an installed copy sits inside the user's repository, whose commit is not ours.
  const top = git(PACKAGE_ROOT, ['rev-parse', '--show-toplevel']);
  if (!top || !samePath(top, PACKAGE_ROOT)) return { version, commit: null, modified: [] };
  const modified = modifiedFiles(PACKAGE_ROOT);
  const diff = modified.length ? git(PACKAGE_ROOT, ['diff', 'HEAD', '--binary'], true) : undefined;
  return { version, commit: git(PACKAGE_ROOT, ['rev-parse', 'HEAD']) ?? null, modified, ...(diff ? { diffSha256: createHash('sha256').update(diff).digest('hex') } : {}) };
}

function samePath(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}

/** The git checkouts holding the task files: commit and the task files that differ from it. */
export function corporaOf(files: string[], cwd: string): RunRecord['corpora'] {
  const rootOfDir = new Map<string, string | undefined>();
  const filesOfRoot = new Map<string, string[]>();
  for (const file of files) {
    const dir = dirname(file);
    if (!rootOfDir.has(dir)) rootOfDir.set(dir, existsSync(dir) ? git(dir, ['rev-parse', '--show-toplevel']) : undefined);
    const root = rootOfDir.get(dir);
    if (root) filesOfRoot.set(root, [...(filesOfRoot.get(root) ?? []), relative(root, file)]);
  }
  return [...filesOfRoot].sort(([a], [b]) => a.localeCompare(b)).flatMap(([root, rootFiles]) => {
    const commit = git(root, ['rev-parse', 'HEAD']);
    return commit ? [{ root: shownPath(root, cwd), commit, modified: modifiedFiles(root, rootFiles) }] : [];
  });
}

function filesLockOf(path: string | undefined, cwd: string): Pick<RunRecord, 'filesLock'> {
  if (!path || !existsSync(path)) return {};
  return { filesLock: { file: shownPath(path, cwd), sha256: createHash('sha256').update(readFileSync(path)).digest('hex') } };
}

export function hostOf(): RunRecord['host'] {
  return { os: type(), release: release(), arch: arch(), cpus: availableParallelism(), node: process.version };
}

/** Each shard's command, from the shard reports (report-shard-i-of-N.json) in the merged run's results folder. */
function shardCommands(resultsDir: string): NonNullable<RunRecord['shards']> {
  let names: string[];
  try {
    names = readdirSync(resultsDir).filter((name) => /^report-shard-\d+-of-\d+\.json$/.test(name));
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    try {
      const run = (JSON.parse(readFileSync(join(resultsDir, name), 'utf8')) as { run?: RunRecord }).run;
      return run?.shard ? [{ shard: run.shard, command: run.command }] : [];
    } catch {
      return []; // not a report deskbench wrote: the merged record says nothing of it
    }
  }).sort((a, b) => Number(a.shard.split('/')[0]) - Number(b.shard.split('/')[0]));
}

/** The command as one shell line: `ENV=… npx vitest run …` (run it in `command.cwd`). */
export function commandLine(command: RunCommand): string {
  const program = command.program === 'vitest' || command.program === 'deskbench' ? ['npx', command.program] : ['node', command.program];
  const env = Object.entries(command.env).map(([key, value]) => `${key}=${shellQuote(value)}`);
  return [...env, ...program.map(shellQuote), ...command.args.map(shellQuote)].join(' ');
}

/** A word for sh: as it is when it holds nothing the shell reads, else in single quotes. */
function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
