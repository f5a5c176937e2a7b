// Desktop-state getters (OSWorld getters/info.py, misc.py, vlc.py): what the desktop shows and how it is set up.
import type { Getter } from '../registry.ts';
import { EVALUATION_A11Y_TIME_LIMIT_MS, stringKey, writeCacheFile } from './support.ts';

/** `accessibility_tree`: OSWorld's accessibility-tree XML of the whole desktop. */
const getAccessibilityTree: Getter = (env) => env.desktop.accessibilityTree({ timeLimitMs: EVALUATION_A11Y_TIME_LIMIT_MS });

/** `list_directory {path}`: `{type, name, children}` tree of a folder in the desktop. */
const getListDirectory: Getter = (env, config) => env.desktop.listDirectory(stringKey('list_directory', config, 'path'));

/** `vm_screen_size`: `{width, height}`. */
const getVmScreenSize: Getter = (env) => env.desktop.screenSize();

/** `vm_window_size {app_class_name}`: `{width, height}` of the first matching window, or null. */
const getVmWindowSize: Getter = (env, config) =>
  env.desktop.windowSize(stringKey('vm_window_size', config, 'app_class_name'));

/** `vm_terminal_output`: text of the focused terminal, or null. */
const getVmTerminalOutput: Getter = (env) => env.desktop.terminalOutput();

/** `vm_wallpaper {dest}`: the wallpaper image in `cacheDir/dest` (an empty file when none is set). */
const getVmWallpaper: Getter = async (env, config) => {
  const dest = stringKey('vm_wallpaper', config, 'dest');
  return writeCacheFile(env, dest, (await env.desktop.wallpaper()) ?? new Uint8Array());
};

// OSWorld's list, duplicates included: they weigh in the vote below.
const VIDEO_TYPES = ['3gp', '3gp', '3gpp', '3gpp', '3gpp2', '3gpp2', 'avi', 'avi', 'divx', 'divx', 'dv', 'dv', 'fli',
  'fli', 'flv', 'flv', 'mp2t', 'mp2t', 'mp4', 'mp4', 'mp4v-es', 'mp4v-es', 'mpeg', 'mpeg', 'mpeg-system',
  'mpeg-system', 'msvideo', 'msvideo', 'ogg', 'ogg', 'quicktime', 'quicktime', 'vnd.divx', 'vnd.divx', 'vnd.mpegurl',
  'vnd.mpegurl', 'vnd.rn-realvideo', 'vnd.rn-realvideo', 'webm', 'webm', 'x-anim', 'x-anim', 'x-avi', 'x-avi', 'x-flc',
  'x-flc', 'x-fli', 'x-fli', 'x-flv', 'x-flv', 'x-m4v', 'x-m4v', 'x-matroska', 'x-matroska', 'x-mpeg', 'x-mpeg',
  'x-mpeg-system', 'x-mpeg-system', 'x-mpeg2', 'x-mpeg2', 'x-ms-asf', 'x-ms-asf', 'x-ms-asf-plugin',
  'x-ms-asf-plugin', 'x-ms-asx', 'x-ms-asx', 'x-ms-wm', 'x-ms-wm', 'x-ms-wmv', 'x-ms-wmv', 'x-ms-wmx', 'x-ms-wmx',
  'x-ms-wvx', 'x-ms-wvx', 'x-msvideo', 'x-msvideo', 'x-nsv', 'x-nsv', 'x-ogm', 'x-ogm', 'x-ogm+ogg', 'x-theora',
  'x-theora', 'x-theora+ogg', 'x-theora+ogg'];

/**
 * `default_video_player`: the most common `xdg-mime query default video/<type>` answer (its stdout, newline
 * included, as OSWorld returns it), or "unknown". One Python call in the desktop instead of 90 round trips.
 */
const getDefaultVideoPlayer: Getter = async (env) => {
  const script = [
    'import json, subprocess, sys',
    'out = []',
    'for t in json.loads(sys.argv[1]):',
    '    try:',
    "        out.append(subprocess.run(['xdg-mime', 'query', 'default', 'video/' + t], capture_output=True, text=True, timeout=20).stdout)",
    '    except Exception:',
    "        out.append('')",
    'print(json.dumps(out))',
  ].join('\n');
  const run = await env.desktop.execute(['python3', '-c', script, JSON.stringify(VIDEO_TYPES)]);
  const answers = JSON.parse(run.output.trim().split('\n').pop() || '[]') as string[];
  const counts = new Map<string, number>();
  for (const app of answers) if (app) counts.set(app, (counts.get(app) ?? 0) + 1);
  let best = 'unknown';
  let bestCount = 0;
  for (const [app, count] of counts) if (count > bestCount) [best, bestCount] = [app, count]; // first seen wins ties
  return best;
};

export const osGetters: Record<string, Getter> = {
  accessibility_tree: getAccessibilityTree,
  list_directory: getListDirectory,
  vm_screen_size: getVmScreenSize,
  vm_window_size: getVmWindowSize,
  vm_terminal_output: getVmTerminalOutput,
  vm_wallpaper: getVmWallpaper,
  default_video_player: getDefaultVideoPlayer,
};
