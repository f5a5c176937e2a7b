// GIMP getter (OSWorld getters/gimp.py): one of GIMP 2.10's config files (sessionrc, gimprc, …).
import type { Getter } from '../registry.ts';
import { stringKey, writeCacheFile } from './support.ts';

/** `gimp_config_file {file_name, dest}`: `~/.config/GIMP/2.10/<file_name>` saved to `cacheDir/dest`; null when empty or absent. */
const getGimpConfigFile: Getter = async (env, config) => {
  const fileName = stringKey('gimp_config_file', config, 'file_name');
  const dest = stringKey('gimp_config_file', config, 'dest');
  const data = await env.desktop.readFile(`~/.config/GIMP/2.10/${fileName}`);
  return data === null || data.length === 0 ? null : writeCacheFile(env, dest, data);
};

export const gimpGetters: Record<string, Getter> = { gimp_config_file: getGimpConfigFile };
