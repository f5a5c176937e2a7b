// VLC (OSWorld metrics/vlc.py): the HTTP interface's status.xml, the window size, and settings read from vlcrc; and
// compare_audios, which OSWorld keeps in the same module (implemented under ./audio/).
import { readFileSync } from 'node:fs';
import type { Metric } from '../registry.ts';
import { urlparse } from '../../python/urllib.ts';
import { compareAudios } from './audio.ts';
import { rulesOf } from './arguments.ts';
import { elementText, parseXml, xpathElements } from '../formats/xml-query.ts';
import { MalformedInputError } from '../../errors.ts';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** `open(path, 'rb').read().decode('utf-8')`: no newline translation, so "\r" stays and `.strip()` removes it. */
function readUtf8(path: unknown): string {
  return utf8.decode(readFileSync(String(path)));
}

function basename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

const META = 'information/category[@name="meta"]';
const FILE_PATHS = ['filename', 'title', 'uri', 'location', 'name'].map((n) => `${META}/info[@name="${n}"]`);
const URL_PATHS = [
  ...['url', 'URI', 'location', 'title', 'filename'].map((n) => `${META}/info[@name="${n}"]`),
  ...['Codec', 'Type', 'Language'].map((n) => `information/category[@name="Stream 0"]/info[@name="${n}"]`),
];

/**
 * is_vlc_playing(status.xml, {type: file_name | url, …}): the state is "playing" and the first non-empty meta field
 * names the expected file (basename, suffix or "/name" ending) or URL (contained, same file name, or same host with
 * the expected path inside).
 */
export function isVlcPlaying(result: unknown, expected: unknown): number {
  const root = parseXml(readUtf8(result));
  const first = (paths: string[]) => {
    for (const path of paths) {
      const el = xpathElements(root, path, {})[0];
      const text = el ? elementText(el) : null;
      if (text) return text;
    }
    return null;
  };
  const state = xpathElements(root, 'state', {})[0];
  if (!state) throw new MalformedInputError('is_vlc_playing: status.xml has no <state>');
  if (elementText(state) !== 'playing') return 0;
  const rule = rulesOf(expected, 'is_vlc_playing');
  if (rule.type === 'file_name') {
    const info = first(FILE_PATHS);
    if (!info) return 0;
    const want = String(rule.file_name);
    if (basename(info) === want || info.endsWith(want)) return 1;
    return info.includes(want) && (info.endsWith(`/${want}`) || info.endsWith(`\\${want}`)) ? 1 : 0;
  }
  if (rule.type === 'url') {
    const info = first(URL_PATHS);
    if (!info) return 0;
    const want = String(rule.url);
    if (info.includes(want) || info.endsWith(want)) return 1;
    const wanted = urlparse(want);
    if (info === basename(wanted.path)) return 1;
    if (info.includes('://')) {
      const actual = urlparse(info);
      if (wanted.netloc === actual.netloc && actual.path.includes(wanted.path)) return 1;
    }
    return 0;
  }
  return 0;
}

/** The first uncommented vlcrc line mentioning `input-record-path` holds exactly the expected folder. */
export function isVlcRecordingsFolder(result: unknown, expected: unknown): number {
  const want = rulesOf(expected, 'is_vlc_recordings_folder').recording_file_path;
  for (const line of readUtf8(result).split('\n')) {
    if (line.startsWith('#') || !line.trim()) continue;
    if (line.includes('input-record-path')) return line.split('=').at(-1)!.trim() === want ? 1 : 0;
  }
  return 0;
}

/** The VLC window size (result) equals the screen size (expected); either missing scores 0. */
export function isVlcFullscreen(result: unknown, expected: unknown): number {
  if (!result || !expected) return 0;
  const w = result as Record<string, unknown>;
  const s = expected as Record<string, unknown>;
  return w.width === s.width && w.height === s.height ? 1 : 0;
}

/**
 * The value of a vlcrc setting as OSWorld reads it: the LAST line that contains `needle` anywhere wins, commented
 * lines included (vlcrc lists every default as `#key=value`), else the default.
 */
function vlcrcValue(path: unknown, needle: string, fallback: string): string {
  let value = fallback;
  for (const line of readUtf8(path).split('\n')) if (line.includes(needle)) value = line.split('=').at(-1)!.trim();
  return value;
}

/** Python's `if isinstance(expected, int): expected = str(expected)`; other types are compared as they are. */
function expectedSetting(expected: unknown, key: string, metric: string): unknown {
  const value = rulesOf(expected, metric)[key];
  return typeof value === 'number' && Number.isInteger(value) ? String(value) : value;
}

function settingCheck(metric: string, key: string, needle: string, fallback: string): (result: unknown, expected: unknown) => number {
  return (result, expected) => (vlcrcValue(result, needle, fallback) === expectedSetting(expected, key, metric) ? 1 : 0);
}

/** qt-bgcone (default 1). */
export const checkQtBgcone = settingCheck('check_qt_bgcone', 'expected_qt_bgcone', 'qt-bgcone=', '1');
/** qt-max-volume (default 125). */
export const checkQtMaxVolume = settingCheck('check_qt_max_volume', 'expected_qt_max_volume', 'qt-max-volume=', '125');
/** qt-minimal-view (default 0). */
export const checkQtMinimalView = settingCheck('check_qt_minimal_view', 'expected_qt_minimal_view', 'qt-minimal-view=', '0');
/** one-instance-when-started-from-file (default 1). */
export const checkOneInstanceWhenStartedFromFile = settingCheck(
  'check_one_instance_when_started_from_file',
  'expected_one_instance_when_started_from_file',
  'one-instance-when-started-from-file=',
  '1',
);
/** play-and-exit (default 0). */
export const checkPlayAndExit = settingCheck('check_play_and_exit', 'expected_play_and_exit', 'play-and-exit=', '0');

/**
 * qt-slider-colours (note: matched without "=", default "153;210;153;20;210;20;255;199;15;245;39;29"): `type: match`
 * compares the text; `type: blackish` needs every RGB triple below 100. A malformed list scores 0.
 */
export function checkQtSliderColours(result: unknown, expected: unknown): number {
  const colours = vlcrcValue(result, 'qt-slider-colours', '153;210;153;20;210;20;255;199;15;245;39;29');
  const rule = rulesOf(expected, 'check_qt_slider_colours');
  if (rule.type === 'match') return colours === rule.expected_qt_slider_colours ? 1 : 0;
  if (rule.type === 'blackish') {
    const parts = colours.split(';');
    if (!parts.every((p) => /^\s*[+-]?\d+\s*$/.test(p))) return 0;
    const values = parts.map(Number);
    // zip(values[0::3], values[1::3], values[2::3]) drops an incomplete last triple.
    for (let i = 0; i + 3 <= values.length; i += 3) if (!values.slice(i, i + 3).every((v) => v < 100)) return 0;
    return 1;
  }
  return 0;
}

/** global-key-play-pause: "1" when the last matching line has a value, "0" when it is empty or absent. */
export function checkGlobalKeyPlayPause(result: unknown, expected: unknown): number {
  let state = '0';
  for (const line of readUtf8(result).split('\n')) {
    if (line.includes('global-key-play-pause=')) state = line.split('=').at(-1)!.trim() === '' ? '0' : '1';
  }
  return state === expectedSetting(expected, 'expected_global_key_play_pause', 'check_global_key_play_pause') ? 1 : 0;
}

export const vlcMetrics: Record<string, Metric> = {
  is_vlc_playing: isVlcPlaying,
  is_vlc_recordings_folder: isVlcRecordingsFolder,
  is_vlc_fullscreen: isVlcFullscreen,
  check_qt_bgcone: checkQtBgcone,
  check_qt_max_volume: checkQtMaxVolume,
  check_qt_minimal_view: checkQtMinimalView,
  check_qt_slider_colours: checkQtSliderColours,
  check_global_key_play_pause: checkGlobalKeyPlayPause,
  check_one_instance_when_started_from_file: checkOneInstanceWhenStartedFromFile,
  check_play_and_exit: checkPlayAndExit,
  compare_audios: compareAudios,
};
