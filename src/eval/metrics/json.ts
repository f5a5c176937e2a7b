// JSON and YAML results (OSWorld general.py and vscode.py): key paths checked with the rule matcher, a JSON object
// compared key by key, VS Code settings and keybindings, a config file that must contain an expected snippet.
import { existsSync } from 'node:fs';
import type { Metric, Options } from '../registry.ts';
import { matchValueToRuleStrict } from './rule-match.ts';
import { pythonEquals, pythonFalsy, pythonIn, pythonSortedList } from '../../python/equality.ts';
import { parsePythonJson, parsePythonYaml } from '../../python/parse.ts';
import type { ValueRule } from './rule-match.ts';
import { rulesOf } from './arguments.ts';
import { pythonStrip } from '../../python/str.ts';
import { readPythonText } from '../../python/io.ts';
import { MetricOptionsError } from '../errors.ts';

/** `value[k]` in Python: dict keys, list indices (negative too); anything else raises (scored 0 by check_json). */
function index(value: unknown, key: unknown): { ok: true; value: unknown } | { ok: false } {
  if (Array.isArray(value) || typeof value === 'string') {
    if (typeof key !== 'number' || !Number.isInteger(key)) return { ok: false };
    const i = key < 0 ? value.length + key : key;
    return i >= 0 && i < value.length ? { ok: true, value: value[i] } : { ok: false };
  }
  if (value && typeof value === 'object') {
    const k = String(key);
    return Object.hasOwn(value, k) ? { ok: true, value: (value as Record<string, unknown>)[k] } : { ok: false };
  }
  return { ok: false };
}

/**
 * check_json(path, {expect:[{key:[…], method, ref}], unexpect:[…]}, is_yaml=False). A missing file, a parse error, an
 * empty YAML document or a missing `expect` key scores 0. A missing `unexpect` key compares None with the rule:
 * `eq` does not match (passes), but a regex rule raises on None and OSWorld then scores 0.
 */
export function checkJson(result: unknown, expected: unknown, options: Options = {}): number {
  if (result === null || result === undefined || !existsSync(String(result))) return 0;
  const rules = rulesOf(expected, 'check_json');
  let data: unknown;
  try {
    const text = readPythonText(String(result));
    data = options.is_yaml ? parsePythonYaml(text) : parsePythonJson(text);
  } catch {
    return 0;
  }
  if (options.is_yaml && (data === null || data === undefined)) return 0;
  let metric = true;
  for (const rule of (rules.expect ?? []) as (ValueRule & { key: unknown[] })[]) {
    let value: unknown = data;
    for (const key of rule.key) {
      const step = index(value, key);
      if (!step.ok) return 0;
      value = step.value;
    }
    try {
      metric &&= matchValueToRuleStrict(value, rule);
    } catch {
      return 0;
    }
  }
  for (const rule of (rules.unexpect ?? []) as (ValueRule & { key: unknown[] })[]) {
    let value: unknown = data;
    for (const key of rule.key) {
      const step = index(value, key);
      if (!step.ok) {
        value = null;
        break;
      }
      value = step.value;
    }
    try {
      metric &&= !matchValueToRuleStrict(value, rule);
    } catch {
      return 0;
    }
  }
  return metric ? 1 : 0;
}

/**
 * check_direct_json_object(result, {expected:{k:v}, expect_in_result?}). A string result is stripped, every `'` becomes
 * `"`, then it is parsed as JSON (a parse error propagates). Quirks kept from OSWorld:
 * - `ignore_list_order` is read from inside `expected`, so the tasks that put it next to `expected` still compare
 *   lists in order; and when it is inside `expected`, sorting its own `true` raises and scores 0.
 * - any expected value equal to "__EVALUATION_FAILED__" scores 0.
 */
export function checkDirectJsonObject(result: unknown, expected: unknown): number {
  let value = result;
  if (typeof value === 'string') value = parsePythonJson(pythonStrip(value).replace(/'/g, '"'));
  if (value === null || value === undefined) return 0;
  const rules = rulesOf(expected, 'check_direct_json_object');
  const wanted = rules.expected;
  if (wanted && typeof wanted === 'object' && !Array.isArray(wanted)) {
    if (Object.values(wanted).some((v) => v === '__EVALUATION_FAILED__')) return 0;
  }
  try {
    return directCompare(value, wanted, Boolean(rules.expect_in_result)) ? 1 : 0;
  } catch {
    return 0; // OSWorld wraps the comparison in `except: return 0.`
  }
}

function directCompare(result: unknown, wanted: unknown, expectInResult: boolean): boolean {
  if (!wanted || typeof wanted !== 'object' || Array.isArray(wanted)) throw new TypeError('rules.expected must be a dict');
  if (!result || typeof result !== 'object' || Array.isArray(result)) throw new TypeError(`'${Array.isArray(result) ? 'list' : typeof result}' object has no attribute 'get'`);
  const expectedDict = wanted as Record<string, unknown>;
  const actual = result as Record<string, unknown>;
  const get = (key: string) => (Object.hasOwn(actual, key) ? actual[key] : null);
  if (!expectInResult) {
    const ignoreOrder = !pythonFalsy(expectedDict.ignore_list_order ?? false);
    for (const key of Object.keys(expectedDict)) {
      if (ignoreOrder) {
        if (!pythonEquals(pythonSortedList(expectedDict[key]), pythonSortedList(get(key)))) return false;
      } else if (!pythonEquals(expectedDict[key], get(key))) return false;
    }
    return true;
  }
  for (const key of Object.keys(expectedDict)) {
    const want = expectedDict[key];
    const got = get(key);
    if (Array.isArray(want)) {
      const hit = want.some((candidate) => (Array.isArray(got) && pythonIn(candidate, got)) || (typeof got === 'string' && pythonEquals(candidate, got)));
      if (!hit) return false;
    } else if (typeof want === 'string') {
      if (!pythonIn(want, got)) return false;
    } else {
      return false;
    }
  }
  return true;
}

/** VS Code settings.json: every key of `rules.expected` is present with an equal value. Parse errors score 0. */
export function checkJsonSettings(result: unknown, expected: unknown): number {
  if (pythonFalsy(result)) return 0;
  let data: unknown;
  try {
    data = parsePythonJson(readPythonText(String(result)));
  } catch {
    return 0;
  }
  const want = rulesOf(expected, 'check_json_settings').expected as Record<string, unknown>;
  if (!want || typeof want !== 'object') throw new MetricOptionsError('check_json_settings: rules.expected must be an object');
  for (const [key, value] of Object.entries(want)) {
    if (!pythonIn(key, data)) return 0;
    const step = index(data, key);
    if (!step.ok) throw new TypeError(`check_json_settings: cannot index the settings with ${JSON.stringify(key)}`);
    if (!pythonEquals(step.value, value)) return 0;
  }
  return 1;
}

/**
 * VS Code keybindings.json: the file must parse to a list (directly, or after skipping its first line, which is
 * usually a `//` comment) that contains `rules.expected`.
 */
export function checkJsonKeybindings(result: unknown, expected: unknown): number {
  const want = rulesOf(expected, 'check_json_keybindings').expected;
  let list: unknown[] | undefined;
  for (const load of [loadDirect, loadSkippingFirstLine]) {
    const data = load(result);
    if (Array.isArray(data)) {
      list = data;
      break;
    }
  }
  if (!list) return 0;
  return pythonIn(want, list) ? 1 : 0;
}

function loadDirect(path: unknown): unknown {
  try {
    return parsePythonJson(readPythonText(String(path)));
  } catch {
    return null;
  }
}

function loadSkippingFirstLine(path: unknown): unknown {
  try {
    const text = readPythonText(String(path));
    const newline = text.indexOf('\n');
    return parsePythonJson(newline < 0 ? '' : text.slice(newline + 1));
  } catch {
    return null;
  }
}

/** OSWorld's `_is_subset`: dicts recursively; lists and scalars must be equal. */
function isSubset(expected: unknown, actual: unknown): boolean {
  if (expected && typeof expected === 'object' && !Array.isArray(expected)) {
    if (!actual || typeof actual !== 'object' || Array.isArray(actual)) return false;
    return Object.entries(expected).every(([k, v]) => Object.hasOwn(actual, k) && isSubset(v, (actual as Record<string, unknown>)[k]));
  }
  return pythonEquals(expected, actual);
}

/**
 * compare_config(path, {expected: text}, containment_ok=True). Containment: when both texts parse as JSON the expected
 * object must be a subset of the actual one (no substring fallback then); when either does not parse, the stripped
 * expected text must occur in the file. `containment_ok=false`: identical text or equal JSON.
 */
export function compareConfig(result: unknown, expected: unknown, options: Options = {}): number {
  if (pythonFalsy(result)) return 0;
  const expectedText = rulesOf(expected, 'compare_config').expected;
  if (pythonFalsy(expectedText)) return 0;
  const want = String(expectedText);
  const actualText = readPythonText(String(result));
  if (options.containment_ok ?? true) {
    try {
      return isSubset(parsePythonJson(want), parsePythonJson(actualText)) ? 1 : 0;
    } catch {
      return actualText.includes(pythonStrip(want)) ? 1 : 0;
    }
  }
  if (actualText === want) return 1;
  try {
    return pythonEquals(parsePythonJson(actualText), parsePythonJson(want)) ? 1 : 0;
  } catch {
    return 0;
  }
}

export const jsonMetrics: Record<string, Metric> = {
  check_json: checkJson,
  check_direct_json_object: checkDirectJsonObject,
  check_json_settings: checkJsonSettings,
  check_json_keybindings: checkJsonKeybindings,
  compare_config: compareConfig,
};
