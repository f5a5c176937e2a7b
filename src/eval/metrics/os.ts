// Ubuntu desktop settings and files (OSWorld metrics/basic_os.py): GNOME favourites, the time zone, text scaling,
// a folder listing, the clipboard.
import type { Metric } from '../registry.ts';
import { rulesOf } from './arguments.ts';
import { pythonIn } from '../../python/equality.ts';
import { parsePythonLiteral, pythonFloat } from '../../python/parse.ts';
import { MalformedInputError } from '../../errors.ts';

function sameElements(actual: unknown[], wanted: unknown[]): boolean {
  if (actual.length !== wanted.length) return false;
  const a = new Set(actual);
  const b = new Set(wanted);
  return a.size === b.size && [...a].every((x) => b.has(x));
}

/** `gsettings get org.gnome.shell favorite-apps` lists the expected apps: same length, same set. */
export function checkGnomeFavoriteApps(result: unknown, expected: unknown): number {
  const apps = parsePythonLiteral(String(result));
  if (!Array.isArray(apps)) throw new TypeError('check_gnome_favorite_apps: the gsettings output is not a list');
  return sameElements(apps, rulesOf(expected, 'check_gnome_favorite_apps').expected as unknown[]) ? 1 : 0;
}

/** The 4th line of `timedatectl status` (the "Time zone" line) ends with "+0000)". */
export function isUtc0(result: unknown): number {
  const lines = String(result).split('\n');
  if (lines.length < 4) throw new MalformedInputError('is_utc_0: timedatectl output has fewer than 4 lines');
  return lines[3].endsWith('+0000)') ? 1 : 0;
}

/** The text scaling factor is above 1.0. */
export function checkTextEnlarged(result: unknown): number {
  const factor = typeof result === 'number' ? result : pythonFloat(String(result));
  if (factor === undefined) throw new MalformedInputError(`check_text_enlarged: could not convert ${JSON.stringify(result)} to float`);
  return factor > 1.0 ? 1 : 0;
}

/** The listed folder's children (list_directory tree) are exactly the expected file names. */
export function checkMovedJpgs(result: unknown, expected: unknown): number {
  const children = (result as { children?: { name: string }[] } | null)?.children;
  if (!Array.isArray(children)) throw new MalformedInputError('check_moved_jpgs: result must be a list_directory tree with children');
  return sameElements(children.map((c) => c.name), rulesOf(expected, 'check_moved_jpgs').expected as unknown[]) ? 1 : 0;
}

/**
 * is_in_vm_clickboard(config, terminal_output): note the order, the rule is the RESULT and the clipboard text (from
 * `xsel`) the EXPECTED side. Each expected string must be in the clipboard.
 */
export function isInVmClickboard(result: unknown, expected: unknown): number {
  const wanted = rulesOf(result, 'is_in_vm_clickboard').expected;
  if (!Array.isArray(wanted)) return pythonIn(wanted, expected) ? 1 : 0;
  return wanted.every((w) => pythonIn(w, expected)) ? 1 : 0;
}

export const osMetrics: Record<string, Metric> = {
  check_gnome_favorite_apps: checkGnomeFavoriteApps,
  is_utc_0: isUtc0,
  check_text_enlarged: checkTextEnlarged,
  check_moved_jpgs: checkMovedJpgs,
  is_in_vm_clickboard: isInVmClickboard,
};
