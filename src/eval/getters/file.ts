// File getters (OSWorld desktop_env/evaluators/getters/file.py): files fetched from the desktop, downloaded from a URL,
// or already in the task's cache folder, each returned as a local path in `env.cacheDir`.
import { copyFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { containedPath } from '../../task/contained-path.ts';
import { xlsxLastRow } from '../formats/xlsx/sheet-data.ts';
import type { Getter, Options } from '../registry.ts';
import { strftime } from '../../python/datetime.ts';
import { cachePath, stringKey, writeCacheFile } from './support.ts';
import { GetterError } from '../errors.ts';

interface FileList {
  paths: string[];
  dests: string[];
  gives: Set<number>;
}

/** `multi` → parallel lists of path/dest; otherwise one of each. `gives` (default [0]) picks what is returned. */
function fileList(getter: string, config: Options): FileList {
  const gives = new Set(Array.isArray(config.gives) ? config.gives.map(Number) : [0]);
  if (!config.multi) return { paths: [stringKey(getter, config, 'path')], dests: [stringKey(getter, config, 'dest')], gives };
  const { path, dest } = config;
  if (!Array.isArray(path) || !Array.isArray(dest)) {
    throw new GetterError(`${getter}: with multi, config.path and config.dest must be lists (got ${typeof path}, ${typeof dest})`);
  }
  return { paths: path.map(String), dests: dest.map(String), gives };
}

/** OSWorld returns a bare value when exactly one file is given, else the list (possibly empty). */
function givenValue<T>(values: T[]): T | T[] {
  return values.length === 1 ? values[0] : values;
}

/**
 * `vm_file {path, dest, multi?, gives?, time_suffix?, time_format?}`: each path fetched from the desktop into
 * `cacheDir/dest`. A missing file gives null at its place; files not in `gives` still land in the cache, where metrics
 * find them beside the given ones (e.g. the CSV exports `sheet_print` reads).
 */
export const getVmFile: Getter = async (env, config) => {
  const { paths, dests, gives } = fileList('vm_file', config);
  if (!config.multi && config.time_suffix) {
    // Newer OSWorld appends the host's time to the local name only: "<stem>_<time><ext>".
    const format = typeof config.time_format === 'string' ? config.time_format : '%Y%m%d_%H%M%S';
    const dest = dests[0];
    const ext = extname(dest);
    dests[0] = `${dest.slice(0, dest.length - ext.length)}_${strftime(format, new Date())}${ext}`;
  }
  const given: (string | null)[] = [];
  for (let i = 0; i < Math.min(paths.length, dests.length); i++) {
    const data = await env.desktop.readFile(paths[i]);
    if (data === null) {
      if (gives.has(i)) given.push(null);
      continue;
    }
    const local = await writeCacheFile(env, dests[i], data);
    if (gives.has(i)) given.push(local);
  }
  return givenValue(given);
};

/** `cloud_file {path: url, dest, multi?, gives?}`: downloaded (through env.fetchUrl) unless `cacheDir/dest` exists. */
export const getCloudFile: Getter = async (env, config) => {
  const { paths, dests, gives } = fileList('cloud_file', config);
  const given: string[] = [];
  for (let i = 0; i < Math.min(paths.length, dests.length); i++) {
    const local = await cachePath(env, dests[i]);
    if (gives.has(i)) given.push(local);
    if (existsSync(local)) continue;
    await copyFile(await env.fetchUrl(paths[i]), local);
  }
  return givenValue(given);
};

/** `cache_file {path}`: a file an earlier step wrote into the cache (e.g. `execute` with `stdout`); null if absent. */
export const getCacheFile: Getter = (env, config) => {
  const path = containedPath(env.cacheDir, stringKey('cache_file', config, 'path'), { file: env.taskFile, field: 'config.path' });
  return existsSync(path) ? path : null;
};

/**
 * `content_from_vm_file {path, file_type: "xlsx", file_content: "last_row"}`: the last data row of the first sheet as
 * pandas prints it (`df.iloc[-1].astype(str)`): the first row is the header, missing cells are "nan".
 */
const getContentFromVmFile: Getter = async (env, config) => {
  const path = stringKey('content_from_vm_file', config, 'path');
  const local = (await getVmFile(env, { path, dest: basename(path) })) as string | null;
  if (local === null) return null;
  if (config.file_type !== 'xlsx') {
    throw new GetterError(`content_from_vm_file: file_type ${JSON.stringify(config.file_type)} is not supported (only "xlsx")`);
  }
  if (config.file_content !== 'last_row') return null; // OSWorld falls through and returns None
  return xlsxLastRow(local);
};

export const fileGetters: Record<string, Getter> = {
  vm_file: getVmFile,
  cloud_file: getCloudFile,
  cache_file: getCacheFile,
  content_from_vm_file: getContentFromVmFile,
};

