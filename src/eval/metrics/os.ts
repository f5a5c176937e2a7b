// Ubuntu desktop settings and files (OSWorld metrics/basic_os.py): GNOME favourites, the time zone, text scaling,
// a folder listing, the clipboard.
import type { Metric } from '../registry.ts';
import { rulesOf } from './arguments.ts';
import { pythonIn } from '../../python/equality.ts';
import { pythonFloat } from './text.ts';

/**
 * Python's `eval` restricted to literals (what gsettings prints: `['a.desktop', 'b.desktop']`): strings, numbers,
 * True/False/None, lists and tuples. Anything else (such as gsettings' `@as []`) raises, as eval would.
 */
export function parsePythonLiteral(source: string): unknown {
  let i = 0;
  const s = source;
  const space = () => {
    while (i < s.length && /\s/.test(s[i])) i++;
  };
  const fail = (): never => {
    throw new SyntaxError(`not a Python literal at ${i}: ${JSON.stringify(s.slice(0, 80))}`);
  };
  const value = (): unknown => {
    space();
    const c = s[i];
    if (c === '[' || c === '(') {
      const close = c === '[' ? ']' : ')';
      i++;
      const items: unknown[] = [];
      space();
      while (s[i] !== close) {
        items.push(value());
        space();
        if (s[i] === ',') i++;
        else if (s[i] !== close) fail();
        space();
      }
      i++;
      return items;
    }
    if (c === "'" || c === '"') {
      i++;
      let out = '';
      while (i < s.length && s[i] !== c) {
        if (s[i] === '\\') {
          const e = s[++i];
          out += ({ n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"' } as Record<string, string>)[e] ?? `\\${e}`;
          i++;
        } else out += s[i++];
      }
      if (s[i] !== c) fail();
      i++;
      return out;
    }
    const word = /^(True|False|None|[+-]?\d+(\.\d*)?([eE][+-]?\d+)?)/.exec(s.slice(i));
    if (!word) return fail();
    i += word[0].length;
    return word[0] === 'True' ? true : word[0] === 'False' ? false : word[0] === 'None' ? null : Number(word[0]);
  };
  const result = value();
  space();
  if (i !== s.length) fail();
  return result;
}

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
  if (lines.length < 4) throw new Error('is_utc_0: timedatectl output has fewer than 4 lines');
  return lines[3].endsWith('+0000)') ? 1 : 0;
}

/** The text scaling factor is above 1.0. */
export function checkTextEnlarged(result: unknown): number {
  const factor = typeof result === 'number' ? result : pythonFloat(String(result));
  if (factor === undefined) throw new Error(`check_text_enlarged: could not convert ${JSON.stringify(result)} to float`);
  return factor > 1.0 ? 1 : 0;
}

/** The listed folder's children (list_directory tree) are exactly the expected file names. */
export function checkMovedJpgs(result: unknown, expected: unknown): number {
  const children = (result as { children?: { name: string }[] } | null)?.children;
  if (!Array.isArray(children)) throw new Error('check_moved_jpgs: result must be a list_directory tree with children');
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
