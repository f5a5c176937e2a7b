// General value comparisons (OSWorld metrics/general.py and vscode.py's compare_answer): the result is a value a getter
// returned (a command's output, a setting), compared with `rules.expected`.
import type { Metric, Options } from '../registry.ts';
import { pythonEquals, pythonFalsy, pythonIn } from '../../python/equality.ts';
import { fuzzRatio } from './text-similarity.ts';
import { requireField, rulesOf } from './arguments.ts';
import { pythonStr } from '../../python/repr.ts';
import { MetricOptionsError } from '../errors.ts';

/** `result == rules["expected"]` with Python equality. */
export function exactMatch(result: unknown, expected: unknown): number {
  return pythonEquals(result, requireField(rulesOf(expected, 'exact_match'), 'expected', 'exact_match')) ? 1 : 0;
}

/** `result in rules["expected"]`: list membership, or a substring when expected is a string. */
export function matchInList(result: unknown, expected: unknown): number {
  return pythonIn(result, requireField(rulesOf(expected, 'match_in_list'), 'expected', 'match_in_list')) ? 1 : 0;
}

/** `rules["expected"] in result` (the reverse of match_in_list). A null result raises in Python. */
export function isInList(result: unknown, expected: unknown): number {
  return pythonIn(requireField(rulesOf(expected, 'is_in_list'), 'expected', 'is_in_list'), result) ? 1 : 0;
}

/**
 * `literal_match(result, expected, type='str'|'list', ignore_case=False)`: compares Python `str()` forms, so 1.5 and
 * "1.5" match and `None` matches "None".
 */
export function literalMatch(result: unknown, expected: unknown, options: Options = {}): number {
  const type = options.type ?? 'str';
  const ignoreCase = Boolean(options.ignore_case);
  const norm = (v: unknown) => (ignoreCase ? pythonStr(v).toLowerCase() : pythonStr(v));
  if (type === 'str') return norm(result) === norm(expected) ? 1 : 0;
  if (type === 'list') {
    if (!Array.isArray(result) || !Array.isArray(expected) || result.length !== expected.length) return 0;
    return result.every((item, i) => norm(item) === norm(expected[i])) ? 1 : 0;
  }
  throw new MetricOptionsError(`literal_match: type must be "str" or "list", got ${JSON.stringify(type)}`);
}

/** rapidfuzz `fuzz.ratio(result, expected) / 100`: a float, not thresholded. */
export function fuzzyMatch(result: unknown, expected: unknown): number {
  const want = requireField(rulesOf(expected, 'fuzzy_match'), 'expected', 'fuzzy_match');
  // rapidfuzz scores None against anything as 0.
  if (result === null || result === undefined || want === null || want === undefined) return 0;
  return fuzzRatio(String(result), String(want)) / 100;
}

/** Every `include` is in the result and no `exclude` is. A missing result scores 0. */
export function checkIncludeExclude(result: unknown, expected: unknown): number {
  if (result === null || result === undefined) return 0;
  const rules = rulesOf(expected, 'check_include_exclude');
  const include = (rules.include ?? []) as unknown[];
  const exclude = (rules.exclude ?? []) as unknown[];
  return include.every((r) => pythonIn(r, result)) && exclude.every((r) => !pythonIn(r, result)) ? 1 : 0;
}

/** VS Code's compare_answer: `result == rules["expected"]`; an empty result scores 0. */
export function compareAnswer(result: unknown, expected: unknown): number {
  if (pythonFalsy(result)) return 0;
  return pythonEquals(result, requireField(rulesOf(expected, 'compare_answer'), 'expected', 'compare_answer')) ? 1 : 0;
}

/** OSWorld's `infeasible()` does nothing; the engine scores infeasible tasks by the agent's FAIL action. */
export function infeasible(): number {
  return 0;
}

export const generalMetrics: Record<string, Metric> = {
  exact_match: exactMatch,
  match_in_list: matchInList,
  is_in_list: isInList,
  literal_match: literalMatch,
  fuzzy_match: fuzzyMatch,
  check_include_exclude: checkIncludeExclude,
  compare_answer: compareAnswer,
  infeasible,
};
