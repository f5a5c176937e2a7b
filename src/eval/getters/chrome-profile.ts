// biome-ignore-all lint/suspicious/noExplicitAny: Chrome's Preferences and Local State are read untyped, key by key, as OSWorld reads them
// Chrome profile getters (OSWorld getters/chrome.py, the file-based half): settings read from the profile's
// Preferences / Local State / Bookmarks / History / Cookies files, fetched from the desktop. OSWorld reads
// ~/.config/google-chrome; our image runs Chromium under a google-chrome wrapper with ~/.config/chromium linked to the
// same folder, so both places are tried. Each getter keeps OSWorld's fallbacks (some return "Google" on error, sic).
import { DatabaseSync } from 'node:sqlite';
import type { EvalEnv, Getter } from '../registry.ts';
import { stringKey, writeCacheFile } from './support.ts';
import { GetterError } from '../errors.ts';

const PROFILE_ROOTS = ['~/.config/google-chrome', '~/.config/chromium', '~/snap/chromium/common/chromium'];

/** The first profile root holding `file` (e.g. "Default/Preferences"), and its bytes; null when none has it. */
async function readProfileFile(env: EvalEnv, file: string): Promise<Buffer | null> {
  for (const root of PROFILE_ROOTS) {
    const data = await env.desktop.readFile(`${root}/${file}`);
    if (data !== null) return data;
  }
  return null;
}

/** Parsed JSON of a profile file; throws (like json.loads(None)) when it is missing. */
async function profileJson(env: EvalEnv, file: string): Promise<Record<string, any>> {
  const data = await readProfileFile(env, file);
  if (data === null) throw new GetterError(`Chrome profile file ${file} not found`);
  return JSON.parse(data.toString('utf8'));
}

/** OSWorld's pattern: read, compute, and on any error return the fallback. */
function fromPreferences(file: string, read: (data: Record<string, any>) => unknown, fallback: unknown): Getter {
  return async (env) => {
    try {
      return read(await profileJson(env, file));
    } catch {
      return fallback;
    }
  };
}

const PREFERENCES = 'Default/Preferences';
const LOCAL_STATE = 'Local State';
const truthy = (value: unknown) =>
  !(value === undefined || value === null || value === false || value === 0 || value === '' ||
    (typeof value === 'object' && Object.keys(value as object).length === 0));
const trueFalse = (value: unknown) => (truthy(value) ? 'true' : 'false');

/** Rows of a profile SQLite file copied to `cacheDir/dest`, as lists (Python's tuples); null on any error. */
function fromDatabase(getter: string, file: string, sql: string): Getter {
  return async (env, config) => {
    try {
      const data = await readProfileFile(env, file);
      if (data === null) return null;
      const local = await writeCacheFile(env, stringKey(getter, config, 'dest'), data);
      // Chrome stores times as µs since 1601 (~1.3e16, beyond 2^53): read them as bigints, then as plain numbers
      // (no metric compares them exactly; Python would keep them exact).
      const db = new DatabaseSync(local, { readOnly: true, readBigInts: true });
      try {
        return db.prepare(sql).all().map((row) => Object.values(row as object).map((value) => (typeof value === 'bigint' ? Number(value) : value)));
      } finally {
        db.close();
      }
    } catch {
      return null;
    }
  };
}

/** Chrome's color-scheme preference as "system" | "light" | "dark" (newer Chrome writes color_scheme2). */
function colorScheme(data: Record<string, any>): string {
  const theme = data.browser?.theme ?? {};
  const raw = theme.color_scheme2 ?? theme.color_scheme;
  const names: Record<string, string> = { '0': 'system', system: 'system', default: 'system', '1': 'light', light: 'light', '2': 'dark', dark: 'dark' };
  const mode = raw === undefined || raw === null ? undefined : names[String(raw).trim().toLowerCase()];
  const systemTheme = data.extensions?.theme?.system_theme;
  if (systemTheme === 0 || systemTheme === '0' || systemTheme === false) return 'light';
  return mode ?? 'system';
}

export const chromeProfileGetters: Record<string, Getter> = {
  default_search_engine: fromPreferences(PREFERENCES, (d) => d.default_search_provider_data?.template_url_data?.short_name ?? 'Google', 'Google'),
  cookie_data: fromDatabase('cookie_data', 'Default/Cookies', 'SELECT * FROM cookies'),
  history: fromDatabase('history', 'Default/History', 'SELECT url, title, last_visit_time FROM urls'),
  bookmarks: async (env) => {
    const data = await readProfileFile(env, 'Default/Bookmarks');
    if (!data?.length) return [];
    return JSON.parse(data.toString('utf8')).roots ?? {};
  },
  enabled_experiments: fromPreferences(LOCAL_STATE, (d) => d.browser?.enabled_labs_experiments ?? [], []),
  profile_name: fromPreferences(PREFERENCES, (d) => d.profile?.name ?? null, null),
  chrome_language: fromPreferences(LOCAL_STATE, (d) => d.intl?.app_locale ?? 'en-US', 'en-US'),
  chrome_font_size: fromPreferences(
    PREFERENCES,
    (d) => d.webkit?.webprefs ?? { default_fixed_font_size: 13, default_font_size: 16, minimum_font_size: 13 },
    { default_fixed_font_size: 13, default_font_size: 16 },
  ),
  chrome_color_scheme: fromPreferences(PREFERENCES, colorScheme, 'system'),
  // OSWorld reads the mode from chrome://settings/appearance first; the Preferences file says the same once flushed.
  chrome_appearance_mode_ui: fromPreferences(PREFERENCES, colorScheme, 'system'),
  enable_do_not_track: fromPreferences(PREFERENCES, (d) => trueFalse(d.enable_do_not_track), 'false'),
  enable_enhanced_safety_browsing: fromPreferences(PREFERENCES, (d) => trueFalse(d.safebrowsing?.enhanced), 'Google'),
  enable_safe_browsing: fromPreferences(PREFERENCES, (d) => trueFalse(d.safebrowsing?.enabled), 'false'),
  new_startup_page: fromPreferences(
    PREFERENCES,
    (d) => (!('session' in d) ? 'true' : d.session?.restore_on_startup === 5 ? 'true' : 'false'),
    'Google',
  ),
  find_unpacked_extension_path: fromPreferences(
    PREFERENCES,
    (d) => Object.values(d.extensions?.settings ?? {}).map((ext: any) => {
      if (!('path' in ext)) throw new GetterError('extension without path'); // KeyError in OSWorld → its fallback
      return ext.path;
    }),
    'Google',
  ),
  find_installed_extension_name: fromPreferences(
    PREFERENCES,
    (d) => Object.values(d.extensions?.settings ?? {}).map((ext: any) => {
      if (!ext.manifest || !('name' in ext.manifest)) throw new GetterError('extension without manifest name');
      return ext.manifest.name;
    }),
    'Google',
  ),
  data_delete_automacally: fromPreferences(
    PREFERENCES,
    (d) => {
      if (!('profile' in d)) throw new GetterError('no profile key');
      return d.profile.default_content_setting_values != null ? 'true' : 'false';
    },
    'Google',
  ),
  /** `shortcuts_on_desktop`: {file name → contents} of the `.desktop` files on the desktop. */
  shortcuts_on_desktop: async (env) => {
    const desktop = await env.desktop.desktopPath();
    const tree = await env.desktop.listDirectory(desktop);
    const shortcuts: Record<string, string> = {};
    for (const child of tree.children ?? []) {
      if (!child.name.endsWith('.desktop')) continue;
      const data = await env.desktop.readFile(`${desktop}/${child.name}`);
      if (data === null) throw new GetterError(`shortcut ${child.name} vanished while reading it`);
      shortcuts[child.name] = data.toString('utf8');
    }
    return shortcuts;
  },
};
