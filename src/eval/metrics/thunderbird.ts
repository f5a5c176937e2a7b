// Thunderbird (OSWorld metrics/thunderbird.py): prefs.js values, message filter rules, mail folder files.
import type { Metric, Options } from '../registry.ts';
import type { ValueRule } from './rule-match.ts';
import { matchRecord, matchValueToRuleStrict } from './rule-match.ts';
import { rulesOf } from './arguments.ts';
import { parsePythonJson } from '../../python/parse.ts';
import { pythonFileLines, readPythonText } from '../../python/io.ts';
import { pythonStrip } from '../../python/str.ts';
import { MalformedInputError } from '../../errors.ts';

const PREF = /^user_pref\("((?:[^"]|\\")+)", (.+)\);$/u;

/**
 * check_thunderbird_prefs(prefs.js, {expect: {key: rule}, unexpect: {key: rule}}): each expected key must appear and
 * its LAST value match its rule; no unexpected key may match. Values are parsed as JSON; a regex rule on a number or
 * boolean raises, as Python's re.search does.
 */
export function checkThunderbirdPrefs(result: unknown, expected: unknown): number {
  if (result === null || result === undefined) return 0;
  const rules = rulesOf(expected, 'check_thunderbird_prefs');
  const expect = (rules.expect ?? {}) as Record<string, ValueRule>;
  const unexpect = (rules.unexpect ?? {}) as Record<string, ValueRule>;
  const found = new Map<string, boolean>(Object.keys(expect).map((k) => [k, false]));
  let clean = true;
  for (const line of pythonFileLines(readPythonText(String(result)))) {
    const m = PREF.exec(pythonStrip(line));
    if (!m) continue;
    const [, key, raw] = m;
    const value = parsePythonJson(raw);
    if (Object.hasOwn(expect, key)) found.set(key, matchValueToRuleStrict(value, expect[key]));
    else if (Object.hasOwn(unexpect, key)) clean &&= !matchValueToRuleStrict(value, unexpect[key]);
  }
  return [...found.values()].every(Boolean) && clean ? 1 : 0;
}

const unescapeValue = (v: string) => v.replace(/\\"/g, '"').replace(/\\\\/g, '\\');
const CONDITION = /\b(?:AND|OR) \((?:[\p{L}\p{N}_ ]+),(?:[\p{L}\p{N}_ ']+),(?:"(?:(?:[^"]|")+)"|(?:[^)]+))\)|\bALL\b/gu;

/**
 * check_thunderbird_filter(msgFilterRules.dat, {expect: [record], unexpect: [record]}). Filters are read line by line
 * with OSWorld's fixed slices (`name="…"` → l[6:-2]), so a last line without its newline loses one character.
 * Conditions become the list of `AND (…)`/`OR (…)`/`ALL` terms.
 */
export function checkThunderbirdFilter(result: unknown, expected: unknown): number {
  if (result === null || result === undefined) return 0;
  const filters: Record<string, unknown>[] = [];
  let current: Record<string, unknown> | undefined;
  const need = () => {
    if (!current) throw new MalformedInputError('check_thunderbird_filter: a filter property comes before any name= line');
    return current;
  };
  for (const l of pythonFileLines(readPythonText(String(result)))) {
    const cut = (start: number) => unescapeValue(l.slice(start, -2));
    if (l.startsWith('name=')) current = { name: cut(6) };
    else if (l.startsWith('enabled=')) need().enabled = cut(9);
    else if (l.startsWith('type=')) need().type = cut(6);
    else if (l.startsWith('action=')) need().action = cut(8);
    else if (l.startsWith('actionValue=')) need().actionValue = cut(13);
    else if (l.startsWith('condition=')) {
      const filter = need();
      filter.condition = cut(11).match(CONDITION) ?? [];
      filters.push(filter);
    }
  }
  const rules = rulesOf(expected, 'check_thunderbird_filter');
  const expect = (rules.expect ?? []) as Record<string, unknown>[];
  const unexpect = (rules.unexpect ?? []) as Record<string, unknown>[];
  const found = expect.map(() => false);
  let clean = true;
  for (const filter of filters) {
    expect.forEach((r, i) => {
      found[i] ||= matchRecord(r, filter);
    });
    clean &&= !unexpect.some((r) => matchRecord(r, filter));
  }
  return found.every(Boolean) && clean ? 1 : 0;
}

/**
 * check_thunderbird_folder(result, reference, ignore_status, ignore_keys, remove_deleted=True,
 * remove_duplicate=True). OSWorld's reader has an inverted test (`if mail.strip(): continue`, reported in PR #565):
 * it SKIPS every non-empty message and keeps only the empty pieces of `data.split('FROM - ')`. Thunderbird mbox
 * files separate messages with "From - ", never "FROM - ", so in practice two files compare equal unless exactly one
 * of them is empty. Reproduced as is, because the scores depend on it.
 */
export function checkThunderbirdFolder(result: unknown, expected: unknown, options: Options = {}): number {
  const normalize = (msg: string) => {
    let m = msg;
    if (options.ignore_status) m = m.replace(/X-Mozilla-Status\d?:[\s\d]+/g, '');
    if (options.ignore_keys) m = m.replace(/(X-Mozilla-Keys:[^\n]*?)\n(MIME-Version)/g, '$2');
    return pythonStrip(m);
  };
  const read = (path: string) => {
    const data = pythonStrip(readPythonText(path));
    let messages: string[] = [];
    for (const mail of data.split('FROM - ')) {
      if (pythonStrip(mail)) continue; // OSWorld's inverted condition
      if ((options.remove_deleted ?? true) && /X-Mozilla-Status: 000[89]/.test(mail)) continue;
      messages.push(`FROM - ${normalize(mail)}`);
    }
    if (options.remove_duplicate ?? true) messages = [...new Set(messages)];
    return messages.sort().join('\n');
  };
  const preds = Array.isArray(expected) ? (result as unknown[]) : [result];
  const golds = Array.isArray(expected) ? expected : [expected];
  for (let i = 0; i < Math.min(preds.length, golds.length); i++) {
    if (preds[i] === null || preds[i] === undefined) return 0;
    if (read(String(preds[i])) !== read(String(golds[i]))) return 0;
  }
  return 1;
}

export const thunderbirdMetrics: Record<string, Metric> = {
  check_thunderbird_prefs: checkThunderbirdPrefs,
  check_thunderbird_filter: checkThunderbirdFilter,
  check_thunderbird_folder: checkThunderbirdFolder,
};
