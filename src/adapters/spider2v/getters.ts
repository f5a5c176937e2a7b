// Spider2-V / GUI-OS getters: files from the task folder, and the output of an evaluation script run in the desktop.
import { existsSync, statSync } from 'node:fs';
import { cp, readFile, rm } from 'node:fs/promises';
import { basename, posix } from 'node:path';
import type { EvalEnv, Getter, Options } from '../../eval/registry.ts';
import { containedPath } from '../../task/contained-path.ts';
import { cachePath, optionalString, resolveTaskFile, stringKey, writeCacheFile } from '../../eval/getters/support.ts';
import { GetterError } from '../../eval/errors.ts';

/**
 * `local_file {path, dest?}`: a file or folder of the task (relative paths resolve against the task folder, also
 * Spider2-V's repository-root paths), copied into `cacheDir/dest` (default: its name). Null when it does not exist.
 */
export const getLocalFile: Getter = async (env, config) => {
  const path = resolveTaskFile(env, stringKey('local_file', config, 'path'));
  if (!existsSync(path)) return null;
  const dest = await cachePath(env, optionalString('local_file', config, 'dest') ?? basename(path));
  if (statSync(path).isDirectory()) await rm(dest, { recursive: true, force: true });
  // A folder may hold symlinks: each must stay in the task folder too, or metrics would read through it.
  await cp(path, dest, { recursive: true, filter: (source) => Boolean(containedPath(env.taskDir, source, { file: env.taskFile, field: 'config.path (a link inside it)' })) });
  return dest;
};

/** `list {list}`: Spider2-V's literal list. */
export const getList: Getter = (_env, config) => {
  if (!('list' in config)) throw new GetterError('list: config.list is missing');
  return config.list;
};

/** Where GUI-OS's upload_script_and_execute puts a script: a folder named after it in the user's home. */
const GUIOS_HOME = '/home/user';

/**
 * `vm_script_output` in its two shapes:
 * - Spider2-V `{src, dest, shell?}`: copy (or download) the script to `dest`, make it executable, run `/bin/bash dest`
 *   and return its stdout.
 * - GUI-OS `{script, log}` (from `eval_script` + `vm_eval_logs`): upload the task's script to
 *   `/home/user/<name>/<name>`, run it as the desktop user with GUI-OS's environment, then return the text of the log
 *   file it wrote (null when it wrote none), keeping a copy in the cache.
 */
const getVmScriptOutput: Getter = async (env, config) => {
  if (typeof config.script === 'string') return guiosScriptLog(env, config);
  const src = stringKey('vm_script_output', config, 'src');
  const dest = stringKey('vm_script_output', config, 'dest');
  await uploadScript(env, src, dest, 'config.src');
  await env.desktop.execute(['chmod', 'a+x', dest], { setup: true });
  const run = await env.desktop.execute(['/bin/bash', dest], { shell: Boolean(config.shell) });
  return run.output;
};

async function uploadScript(env: EvalEnv, src: string, dest: string, field: string): Promise<void> {
  const local = /^https?:\/\//.test(src) ? await env.fetchUrl(src) : resolveTaskFile(env, src, field);
  if (!existsSync(local)) throw Object.assign(new Error(`evaluation script ${src} not found (looked at ${local})`), { code: 'ENOENT' });
  await env.desktop.upload(dest, await readFile(local));
}

async function guiosScriptLog(env: EvalEnv, config: Options): Promise<string | null> {
  const script = stringKey('vm_script_output', config, 'script');
  const log = stringKey('vm_script_output', config, 'log');
  const name = posix.basename(script);
  const remote = `${GUIOS_HOME}/${name}/${name}`;
  await uploadScript(env, script, remote, 'evaluation.arguments.eval_script');
  const quoted = `'${remote.replace(/'/g, `'\\''`)}'`;
  await env.desktop.execute(
    ['bash', '-c', `chmod +x ${quoted} && cd "$HOME" && TASK_SETUP_LOG=task-setup.log SHARED_DIR=/tmp ${quoted}`],
    { shell: false },
  );
  const text = await env.desktop.readFile(log);
  if (text === null) return null;
  await writeCacheFile(env, posix.basename(log), text);
  return text.toString('utf8');
}

export const spider2vGetters: Record<string, Getter> = {
  local_file: getLocalFile,
  list: getList,
  vm_script_output: getVmScriptOutput,
};
