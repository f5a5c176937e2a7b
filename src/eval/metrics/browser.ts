// Chrome state (OSWorld metrics/chrome.py): open tabs, the active tab's URL, bookmarks, cookies, history, settings
// read from the profile, desktop shortcuts, the Steam cart page.
import type { Metric } from '../registry.ts';
import { pythonEquals, pythonFalsy, pythonIn } from '../../python/equality.ts';
import { pythonRegex } from '../../python/regex.ts';
import { urlparse, urlunparse } from '../../python/urllib.ts';
import { compareUrls } from '../url.ts';
import { rulesOf } from './arguments.ts';
import { MalformedInputError } from '../../errors.ts';

type Dict = Record<string, unknown>;

function get(obj: unknown, key: string, what: string): unknown {
  if (!obj || typeof obj !== 'object' || !Object.hasOwn(obj, key)) throw new MalformedInputError(`${what}: missing "${key}" in ${JSON.stringify(obj)?.slice(0, 200)}`);
  return (obj as Dict)[key];
}

function tabUrl(info: unknown): unknown {
  return info && typeof info === 'object' && !Array.isArray(info) ? ((info as Dict).url ?? null) : info;
}

/** The active tab (a `{url}` dict or a URL string) matches `rules.url` under compare_urls. */
export function isExpectedActiveTab(result: unknown, expected: unknown): number {
  if (pythonFalsy(result)) return 0;
  const rules = rulesOf(expected, 'is_expected_active_tab');
  if (rules.type !== 'url') return 0;
  return compareUrls(rules.url as string, tabUrl(result) as string) ? 1 : 0;
}

/**
 * Like is_expected_active_tab but only the query is removed, through Python's urlparse/urlunparse: no compare_urls
 * normalisation (www, trailing slash, public suffix all still count) and the fragment is kept.
 */
export function isExpectedActiveTabApproximate(result: unknown, expected: unknown): number {
  if (pythonFalsy(result)) return 0;
  const rules = rulesOf(expected, 'is_expected_active_tab_approximate');
  if (rules.type !== 'url') return 0;
  const stripQuery = (url: unknown) => urlunparse({ ...urlparse(url as string), query: '' });
  return stripQuery(rules.url) === stripQuery(tabUrl(result)) ? 1 : 0;
}

/** Every regex of `rules.expected` is found (`re.search`) in the URL (a string or a `{url}` dict). */
export function isExpectedUrlPatternMatch(result: unknown, expected: unknown): number {
  if (pythonFalsy(result)) return 0;
  let url: string;
  if (typeof result === 'string') url = result;
  else if (result && typeof result === 'object' && 'url' in result) url = (result as Dict).url as string;
  else return 0;
  const patterns = get(rulesOf(expected, 'is_expected_url_pattern_match'), 'expected', 'is_expected_url_pattern_match') as string[];
  return patterns.every((p) => pythonRegex(p).test(url)) ? 1 : 0;
}

// Extension names that changed across Chrome Web Store versions count as one (OSWorld's alias groups).
const ALIAS_GROUPS = [['Zoom Chrome Extension', 'Zoom for Google Chrome']];

/** The expected extension names are a subset of the installed ones (after aliasing). */
export function isExpectedInstalledExtensions(result: unknown, expected: unknown): number {
  if (pythonFalsy(result)) return 0;
  const canonical = (name: string) => {
    const group = ALIAS_GROUPS.find((g) => g.includes(name));
    return group ? [...group].sort()[0] : name;
  };
  const installed = new Set((result as string[]).map(canonical));
  const wanted = get(rulesOf(expected, 'is_expected_installed_extensions'), 'expected', 'is_expected_installed_extensions') as string[];
  return wanted.map(canonical).every((name) => installed.has(name)) ? 1 : 0;
}

/**
 * `{type:"url", urls}`: as many tabs as expected URLs, and each expected URL matches some tab (compare_urls). Order
 * and duplicates are not checked, only this one direction (OSWorld's are_lists_equal).
 */
export function isExpectedTabs(result: unknown, expected: unknown): number {
  if (pythonFalsy(result)) return 0;
  const rules = rulesOf(expected, 'is_expected_tabs');
  if (rules.type !== 'url') return 0;
  const wanted = rules.urls as string[];
  const actual = (result as Dict[]).map((tab) => get(tab, 'url', 'is_expected_tabs') as string);
  if (wanted.length !== actual.length) return 0;
  return wanted.every((w) => actual.some((a) => compareUrls(w, a))) ? 1 : 0;
}

function bookmarkBarChildren(roots: unknown): Dict[] {
  return get(get(roots, 'bookmark_bar', 'is_expected_bookmarks'), 'children', 'is_expected_bookmarks') as Dict[];
}

function sameSet(a: unknown[], b: unknown[]): boolean {
  const x = new Set(a);
  const y = new Set(b);
  return x.size === y.size && [...x].every((v) => y.has(v));
}

/**
 * Bookmarks (the `roots` dict): the set of bookmark-bar folder names, of bookmark-bar URLs, or the set of URLs in the
 * bar's "Liked Authors" folder, which must equal one choice of alternatives per author.
 */
export function isExpectedBookmarks(result: unknown, expected: unknown): number {
  if (pythonFalsy(result)) return 0;
  const rules = rulesOf(expected, 'is_expected_bookmarks');
  const bar = bookmarkBarChildren(result);
  const typeOf = (b: Dict) => get(b, 'type', 'is_expected_bookmarks');
  switch (rules.type) {
    case 'bookmark_bar_folders_names':
      return sameSet(bar.filter((b) => typeOf(b) === 'folder').map((b) => b.name), rules.names as unknown[]) ? 1 : 0;
    case 'bookmark_bar_websites_urls':
      return sameSet(bar.filter((b) => typeOf(b) === 'url').map((b) => b.url), rules.urls as unknown[]) ? 1 : 0;
    case 'liked_authors_websites_urls': {
      const folder = bar.find((b) => typeOf(b) === 'folder' && b.name === 'Liked Authors');
      if (!folder) return 0;
      const liked = new Set(((folder.children ?? []) as Dict[]).filter((b) => typeOf(b) === 'url').map((b) => b.url as string));
      const options = (rules.urls as (string | string[])[]).map((u) => (typeof u === 'string' ? [u] : u));
      // itertools.product(*urls) looking for a combination whose set equals the folder's: choose only liked URLs and
      // require every liked URL to be chosen.
      const choose = (i: number, chosen: Set<string>): boolean => {
        if (i === options.length) return chosen.size === liked.size;
        return options[i].some((url) => liked.has(url) && choose(i + 1, new Set([...chosen, url])));
      };
      return choose(0, new Set()) ? 1 : 0;
    }
  }
  throw new TypeError(`${String(rules.type)} not support yet!`);
}

/** `re.search(rules.expect.pattern, active_tab_info.url)`. */
export function isExpectedSearchQuery(result: unknown, expected: unknown): number {
  if (pythonFalsy(result)) return 0;
  const pattern = get(get(rulesOf(expected, 'is_expected_search_query'), 'expect', 'is_expected_search_query'), 'pattern', 'is_expected_search_query') as string;
  return pythonRegex(pattern).test(get(result, 'url', 'is_expected_search_query') as string) ? 1 : 0;
}

/** `{type:"domains", domains}`: no cookie's host (column 1 of the cookies rows) compare_urls-matches a domain. */
export function isCookieDeleted(result: unknown, expected: unknown): number {
  const rules = rulesOf(expected, 'is_cookie_deleted');
  if (rules.type !== 'domains') throw new TypeError(`${String(rules.type)} not support yet!`);
  const hosts = (result as unknown[][]).map((row) => row[1] as string);
  return (rules.domains as string[]).some((d) => hosts.some((h) => compareUrls(d, h))) ? 0 : 1;
}

/** `{type:"keywords", keywords}`: no history URL (column 0) contains a keyword. */
export function checkHistoryDeleted(result: unknown, expected: unknown): number {
  const rules = rulesOf(expected, 'check_history_deleted');
  if (rules.type !== 'keywords') throw new TypeError(`${String(rules.type)} not support yet!`);
  const urls = (result as unknown[][]).map((row) => row[0]);
  return (rules.keywords as string[]).some((k) => urls.some((u) => pythonIn(k, u))) ? 0 : 1;
}

/** `{type:"names", names}`: the enabled experiments (without their "@n" option suffix) equal the list, in order. */
export function checkEnabledExperiments(result: unknown, expected: unknown): number {
  const names = (result as string[]).map((e) => e.split('@')[0]);
  const rules = rulesOf(expected, 'check_enabled_experiments');
  if (rules.type !== 'names') throw new TypeError(`${String(rules.type)} not support yet!`);
  return pythonEquals(names, rules.names) ? 1 : 0;
}

/** `default_font_size` equals `rules.value`, or lies strictly between `min` and `max`. */
export function checkFontSize(result: unknown, expected: unknown): number {
  const size = get(result, 'default_font_size', 'check_font_size') as number;
  const rules = rulesOf(expected, 'check_font_size');
  if (rules.type === 'value') return pythonEquals(size, rules.value) ? 1 : 0;
  if (rules.type === 'range') return (rules.min as number) < size && size < (rules.max as number) ? 1 : 0;
  throw new TypeError(`${String(rules.type)} not support yet!`);
}

/** The `.desktop` keys is_shortcut_on_desktop checks, and OSWorld's relaxed match of each: names ignore case. */
const SHORTCUT_FIELDS: Record<string, { key: string; relaxed: (actual: string, want: string) => boolean }> = {
  name: { key: 'Name', relaxed: (actual, want) => actual.toLowerCase().includes(want.toLowerCase()) || want.toLowerCase().includes(actual.toLowerCase()) },
  exec: { key: 'Exec', relaxed: (actual, want) => actual.includes(want) || want.includes(actual) },
};

/**
 * A desktop shortcut (`{path: .desktop content}`) with `Name=` (type name) or `Exec=` (type exec) equal to the rule,
 * or, failing that, one containing the other (names case-insensitively), as OSWorld's relaxed check does.
 */
export function isShortcutOnDesktop(result: unknown, expected: unknown): number {
  const rules = rulesOf(expected, 'is_shortcut_on_desktop');
  const type = String(rules.type);
  if (!Object.hasOwn(SHORTCUT_FIELDS, type)) throw new TypeError(`${type} not support yet!`);
  const { key, relaxed } = SHORTCUT_FIELDS[type];
  const want = String(rules[type]);
  for (const content of Object.values((result ?? {}) as Record<string, string>)) {
    if (content.includes(`${key}=${want}\n`)) return 1;
    for (const line of content.split('\n')) {
      if (!line.startsWith(`${key}=`)) continue;
      const actual = line.slice(key.length + 1);
      if (actual === want || relaxed(actual, want)) return 1;
    }
  }
  return 0;
}

/** Every `rules.items` string occurs in the cart page's HTML (`active_tab_info.content`). */
export function isAddedToSteamCart(result: unknown, expected: unknown): number {
  const content = get(result, 'content', 'is_added_to_steam_cart');
  const items = get(rulesOf(expected, 'is_added_to_steam_cart'), 'items', 'is_added_to_steam_cart') as string[];
  return items.every((item) => pythonIn(item, content)) ? 1 : 0;
}

export const browserMetrics: Record<string, Metric> = {
  is_expected_active_tab: isExpectedActiveTab,
  is_expected_active_tab_approximate: isExpectedActiveTabApproximate,
  is_expected_url_pattern_match: isExpectedUrlPatternMatch,
  is_expected_installed_extensions: isExpectedInstalledExtensions,
  is_expected_tabs: isExpectedTabs,
  is_expected_bookmarks: isExpectedBookmarks,
  is_expected_search_query: isExpectedSearchQuery,
  is_cookie_deleted: isCookieDeleted,
  check_history_deleted: checkHistoryDeleted,
  check_enabled_experiments: checkEnabledExperiments,
  check_font_size: checkFontSize,
  is_shortcut_on_desktop: isShortcutOnDesktop,
  is_added_to_steam_cart: isAddedToSteamCart,
};
