// Small helpers every getter family shares: reading config keys with clear errors, placing files in the task's
// cache folder, resolving task-relative files, and Python's `str()` of values (OSWorld getters return Python strings).
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { containedPath } from '../../task/contained-path.ts';
import type { EvalEnv, Options } from '../registry.ts';
import { describeValue } from '../../shared/describe-value.ts';
import { GetterError } from '../errors.ts';

/** A required string key of a getter config; throws "vm_file: config.path must be a string (got …)". */
export function stringKey(getter: string, config: Options, key: string): string {
  const value = config[key];
  if (typeof value !== 'string') throw new GetterError(`${getter}: config.${key} must be a string (got ${describeValue(value)})`);
  return value;
}

export function optionalString(getter: string, config: Options, key: string): string | undefined {
  return config[key] === undefined ? undefined : stringKey(getter, config, key);
}

/**
 * `os.path.join(env.cache_dir, dest)`, with the parent folder created. `dest` must stay inside the cache: the bytes
 * written there come from the desktop, which the agent controls.
 */
export async function cachePath(env: EvalEnv, dest: string): Promise<string> {
  const path = containedPath(env.cacheDir, dest, { file: env.taskFile, field: 'config.dest' });
  await mkdir(dirname(path), { recursive: true });
  return path;
}

/** Writes bytes to `cacheDir/dest` and returns the path. */
export async function writeCacheFile(env: EvalEnv, dest: string, data: Uint8Array | string): Promise<string> {
  const path = await cachePath(env, dest);
  await writeFile(path, data);
  return path;
}

/**
 * A task file path, relative to the task folder and inside it (a task must not make deskbench read, send or compare
 * another host file). Spider2-V writes paths from its repository root (`evaluation_examples/examples/<tool>/<id>/eval.sh`);
 * those resolve to the same file in the task folder.
 */
export function resolveTaskFile(env: EvalEnv, path: string, field = 'config.path'): string {
  const fromRepoRoot = /(?:^|\/)evaluation_examples\/examples\/[^/]+\/[^/]+\/(.+)$/.exec(path);
  const direct = fromRepoRoot && !existsSync(resolve(env.taskDir, path)) ? fromRepoRoot[1] : path;
  return containedPath(env.taskDir, direct, { file: env.taskFile, field });
}

/**
 * How long the desktop may walk the tree for a getter. OSWorld's walk has no bound; the server's default (10 s) keeps
 * agents' observations quick, but a verdict must not depend on machine load: a loaded 2-core machine took 30-50 s
 * for LibreOffice Impress, whose slide pane (check_left_panel) then went missing from a 10 s tree.
 */
export const EVALUATION_A11Y_TIME_LIMIT_MS = 120_000;
