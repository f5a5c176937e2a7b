// `deskbench rerun <report.json>`: prints the command (and the deskbench() options) that produced a run, from its run
// record (src/node/report/run-record.ts), and says where the current tree differs from what the run used: deskbench's
// commit and changed files, task files, corpus commits, the agent module, the desktop image, the config's options,
// the files lock, the host.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { imageIdOf } from '../../desktop/environment.ts';
import { RunReportError } from '../../errors.ts';
import { loadRun } from '../report/compare/load.ts';
import { PACKAGE_ROOT, type RunRecord, commandLine, corporaOf, deskbenchIdentity, hostOf } from '../report/run-record.ts';
import { ConfigError, tasksFromVitestConfig } from './check.ts';
import { parseCommandArgs } from './parse-args.ts';

export const RERUN_USAGE = `  rerun <report.json or results folder>
          Print the command that produced the run (the shards' commands and the merge, for a merged run), the
          deskbench() options it ran with (secrets masked: set those yourself), and every way the current tree
          differs from the run's record: deskbench's commit and changed files, task files (sha256), corpus commits,
          the agent module, the desktop image (id, and the build hash this tree would build), the config's options,
          the files lock, the host. Exit 0 when nothing differs, 1 when something does, 2 on a usage error.
          --json    print { cwd, commands, options, differences } instead`;

export async function rerunCommand(args: string[]): Promise<number> {
  const parsed = parseCommandArgs('rerun', RERUN_USAGE, args, { json: { type: 'boolean', default: false } });
  if (!parsed) return 2;
  if (parsed.positionals.length !== 1) {
    console.error(`deskbench rerun: expected one report.json or results folder (got ${parsed.positionals.length})\n\n${RERUN_USAGE}`);
    return 2;
  }
  let record: RunRecord;
  let file: string;
  try {
    const run = loadRun(parsed.positionals[0]);
    file = run.file;
    if (!run.report.run) throw new RunReportError(`${run.file} at run: no run record (the report was written by a deskbench older than deskbench rerun, or by deskbench verify)`);
    record = run.report.run;
  } catch (error) {
    if (!(error instanceof RunReportError)) throw error;
    console.error(`deskbench rerun: ${error.message}`);
    return 2;
  }
  const commands = [...(record.shards ?? []).map((shard) => commandLine(shard.command)), commandLine(record.command)];
  const differences = await differencesFromRecord(record);
  if (parsed.values.json) {
    console.log(JSON.stringify({ cwd: record.command.cwd, commands, options: record.options ?? null, differences }, null, 2));
  } else {
    const masked = Object.entries(record.command.env).filter(([, value]) => value.includes('***')).map(([name]) => name);
    console.log(
      [
        `# The command that produced ${file} (recorded ${record.recordedAt}${record.runId ? `, run ${record.runId}` : ''}):`,
        ...(record.shards?.length ? [`# merged from ${record.shards.length} shards: run each shard, gather the results and the blobs, then merge`] : []),
        `cd ${record.command.cwd}`,
        ...commands,
        ...(masked.length ? [`# ${masked.join(', ')} held secrets (masked as ***): set them yourself`] : []),
        '',
        `# deskbench() options in ${record.configFile ?? 'the vitest config'} (secrets masked):`,
        JSON.stringify(record.options ?? {}, null, 2),
        '',
        differences.length ? `# Where this tree differs from the run (${differences.length}):\n${differences.map((d) => `  ! ${d}`).join('\n')}` : '# This tree matches the record: deskbench commit, task files, corpora, agent module, image, options, host.',
      ].join('\n'),
    );
  }
  return differences.length ? 1 : 0;
}

/** deskbench's uncommitted changes then and now: files changed since, no longer changed, or changed again. */
function changedFileDifferences(recorded: RunRecord['deskbench'], now: RunRecord['deskbench']): string[] {
  const added = now.modified.filter((file) => !recorded.modified.includes(file));
  const gone = recorded.modified.filter((file) => !now.modified.includes(file));
  const differences = [
    ...(added.length ? [`deskbench files changed since the run: ${added.join(', ')}`] : []),
    ...(gone.length ? [`deskbench files the run had changed, now as committed: ${gone.join(', ')}`] : []),
  ];
  if (!differences.length && recorded.diffSha256 && recorded.diffSha256 !== now.diffSha256) differences.push(`deskbench's uncommitted changes differ from the run's (git diff HEAD: ${short(recorded.diffSha256)} then, ${short(now.diffSha256)} now)`);
  return differences;
}

function sha256(file: string): string | undefined {
  try {
    return createHash('sha256').update(readFileSync(file)).digest('hex');
  } catch {
    return undefined;
  }
}

const short = (hash: string | null | undefined) => (hash ? hash.replace(/^sha256:/, '').slice(0, 12) : 'none');

/** Every way the current tree and machine differ from the record, one sentence each. */
async function differencesFromRecord(record: RunRecord): Promise<string[]> {
  const { cwd } = record.command;
  if (!existsSync(cwd)) return [`the folder the run ran in, ${cwd}, does not exist here: nothing else could be checked`];
  const differences: string[] = [];
  const now = deskbenchIdentity();
  if (now.version !== record.deskbench.version) differences.push(`deskbench version: recorded ${record.deskbench.version}, now ${now.version}`);
  if (now.commit !== record.deskbench.commit) differences.push(`deskbench commit: recorded ${short(record.deskbench.commit)}, now ${short(now.commit)}`);
  differences.push(...changedFileDifferences(record.deskbench, now));
  for (const [taskFile, recorded] of Object.entries(record.taskFiles)) {
    const current = sha256(resolve(cwd, taskFile));
    if (current !== recorded) differences.push(current ? `task file ${taskFile}: sha256 recorded ${short(recorded)}, now ${short(current)}` : `task file ${taskFile} is missing`);
  }
  const corpora = new Map(corporaOf(Object.keys(record.taskFiles).map((taskFile) => resolve(cwd, taskFile)), cwd).map((corpus) => [corpus.root, corpus]));
  for (const corpus of record.corpora) {
    const current = corpora.get(corpus.root);
    if (current?.commit !== corpus.commit) differences.push(`corpus ${corpus.root}: commit recorded ${short(corpus.commit)}, now ${short(current?.commit)}`);
  }
  for (const agent of record.agents) {
    if (!agent.moduleSha256) continue;
    const file = resolve(cwd, agent.module.replace(/^object in /, ''));
    const current = sha256(file);
    if (current !== agent.moduleSha256) differences.push(`agent ${agent.name}: ${agent.module} sha256 recorded ${short(agent.moduleSha256)}, now ${current ? short(current) : 'missing'}`);
  }
  differences.push(...(await imageDifferences(record)));
  differences.push(...(await optionDifferences(record)));
  if (record.filesLock) {
    const current = sha256(resolve(cwd, record.filesLock.file));
    if (current !== record.filesLock.sha256) differences.push(`files lock ${record.filesLock.file}: sha256 recorded ${short(record.filesLock.sha256)}, now ${current ? short(current) : 'missing'}`);
  }
  // The host changes timings (and with them timeouts), not what a task asks.
  const host = hostOf();
  for (const key of ['os', 'arch', 'cpus'] as const) {
    if (host[key] !== record.host[key]) differences.push(`host ${key}: recorded ${record.host[key]}, this machine ${host[key]}`);
  }
  return differences;
}

/** The recorded images against the engine's now, and the build hash this tree's docker/ and server/ would build. */
async function imageDifferences(record: RunRecord): Promise<string[]> {
  const differences: string[] = [];
  const treeHash = record.images.some((image) => image.buildHash) ? buildHashOfTree(record.command.env) : undefined;
  for (const image of record.images) {
    if (!image.image) continue; // a remote desktop: nothing here to look at
    const current = await imageIdOf(image.image);
    if (!current.imageId) differences.push(`desktop image ${image.image}: not in the Docker engine now (recorded ${short(image.imageId)})`);
    else if (current.imageId !== image.imageId) differences.push(`desktop image ${image.image}: id recorded ${short(image.imageId)}, now ${short(current.imageId)}`);
    if (image.buildHash && treeHash && treeHash !== image.buildHash) differences.push(`desktop image: built from ${image.buildHash}, this tree builds ${treeHash} (npx deskbench image)`);
  }
  return differences;
}

/** The tag `deskbench image` would build from this tree (scripts/build-image.sh --hash), undefined when unknown. */
function buildHashOfTree(env: Record<string, string>): string | undefined {
  const script = join(PACKAGE_ROOT, 'scripts', 'build-image.sh');
  if (!existsSync(script)) return undefined;
  const run = spawnSync('bash', [script, '--hash'], { encoding: 'utf8', env: { ...process.env, ...env } });
  return run.status === 0 ? run.stdout.trim() : undefined;
}

/** The config's deskbench() options now (read with the run's environment variables) against the recorded ones. */
async function optionDifferences(record: RunRecord): Promise<string[]> {
  if (!record.options) return [];
  const { cwd, env } = record.command;
  const saved = { ...process.env };
  let plugins;
  try {
    Object.assign(process.env, env);
    plugins = (await tasksFromVitestConfig(cwd, record.configFile)).plugins;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return [`the vitest config could not be read: ${error.message}`];
  } finally {
    for (const name of Object.keys(env)) if (saved[name] === undefined) delete process.env[name];
    Object.assign(process.env, saved);
  }
  const recorded = record.options;
  const differing = (options: Record<string, unknown>) =>
    [...new Set([...Object.keys(recorded), ...Object.keys(options)])].filter((name) => JSON.stringify(recorded[name]) !== JSON.stringify(options[name]));
  // The config's deskbench() plugin closest to the record (a config may have several, one per project).
  const closest = plugins
    .flatMap((plugin) => (plugin.recordedOptions ? [plugin.recordedOptions] : []))
    .map((options) => ({ options, names: differing(options) }))
    .sort((a, b) => a.names.length - b.names.length)[0];
  if (!closest) return ['the vitest config has no deskbench() plugin that reports its options (a deskbench older than rerun?)'];
  return closest.names.map((name) => `option ${name}: recorded ${JSON.stringify(recorded[name])}, the config now gives ${JSON.stringify(closest.options[name])}`);
}
