// Plain-text files compared with a gold file or with rules (OSWorld general.py and vscode.py): line similarity,
// exact text, containment, regex lines, Python source, terminal output, numeric answers.
import { pythonRegex, searchLine } from '../../python/regex.ts';
import { existsSync, statSync } from 'node:fs';
import type { Metric, Options } from '../registry.ts';
import { sequenceMatcherRatio } from './text-similarity.ts';
import { rulesOf } from './arguments.ts';
import { pythonFalsy } from '../../python/equality.ts';
import { pythonFileLines, readPythonText } from '../../python/io.ts';
import { pythonInt, pythonFloat } from '../../python/parse.ts';
import { pythonExpandTabs, pythonSplitlines, pythonStrip } from '../../python/str.ts';
import { MetricOptionsError } from '../errors.ts';

/** difflib `SequenceMatcher(a=result_lines, b=expected_lines).ratio()`: a float. A missing result scores 0. */
export function diffTextFile(result: unknown, expected: unknown): number {
  if (result === null || result === undefined) return 0;
  const a = pythonSplitlines(readPythonText(String(result)));
  const b = pythonSplitlines(readPythonText(String(expected)));
  return sequenceMatcherRatio(a, b);
}

/**
 * Exact text equality. `ignore_blanks`: tabs and newlines become spaces, the text is stripped, whitespace runs collapse
 * to one space. `ignore_case` lower-cases both.
 */
export function compareTextFile(result: unknown, expected: unknown, options: Options = {}): number {
  if (pythonFalsy(result)) return 0;
  let actual = readPythonText(String(result));
  let gold = readPythonText(String(expected));
  if (options.ignore_blanks) {
    const squeeze = (t: string) => pythonStrip(t.replace(/[\t\n]/g, ' ')).replace(/\s+/g, ' ');
    actual = squeeze(actual);
    gold = squeeze(gold);
  }
  if (options.ignore_case) {
    actual = actual.toLowerCase();
    gold = gold.toLowerCase();
  }
  return actual === gold ? 1 : 0;
}

/** Every string of `rules.expected` occurs in the file. Unreadable files score 0 (OSWorld catches everything). */
export function fileContains(result: unknown, expected: unknown): number {
  if (pythonFalsy(result)) return 0;
  const wanted = rulesOf(expected, 'file_contains').expected;
  let text: string;
  try {
    text = readPythonText(String(result));
  } catch {
    return 0;
  }
  if (!Array.isArray(wanted)) throw new MetricOptionsError('file_contains: rules.expected must be a list of strings');
  return wanted.every((s) => text.includes(String(s))) ? 1 : 0;
}

/** The number of lines holding a time `HH:MM:SS` equals `int(rules.expected)`. */
export function checkLineNumber(result: unknown, expected: unknown): number {
  if (result === null || result === undefined || !existsSync(String(result)) || !statSync(String(result)).isFile()) return 0;
  const time = /([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)/;
  try {
    const count = pythonFileLines(readPythonText(String(result))).filter((line) => time.test(line)).length;
    return count === pythonInt(rulesOf(expected, 'check_line_number').expected) ? 1 : 0;
  } catch {
    return 0;
  }
}

/**
 * Each `expect` regex matches at least one line (`re.search`) and no line matches an `unexpect` regex. Lines are
 * searched as Python iterates a file, with their trailing newline.
 */
export function checkList(result: unknown, expected: unknown): number {
  if (result === null || result === undefined) return 0;
  const rules = rulesOf(expected, 'check_list');
  const expect = ((rules.expect ?? []) as string[]).map((p) => pythonRegex(p));
  const unexpect = ((rules.unexpect ?? []) as string[]).map((p) => pythonRegex(p));
  const found = expect.map(() => false);
  let clean = true;
  for (const line of pythonFileLines(readPythonText(String(result)))) {
    expect.forEach((re, i) => {
      found[i] ||= searchLine(re, line);
    });
    clean &&= unexpect.every((re) => !searchLine(re, line));
  }
  return found.every(Boolean) && clean ? 1 : 0;
}

/**
 * Python source equal to the gold after light normalisation: up to three leading shebang/coding lines skipped, blank
 * lines dropped, tabs expanded to 4 columns, trailing spaces removed. Unreadable files score 0.
 */
export function comparePythonPureText(result: unknown, expected: unknown): number {
  if (pythonFalsy(result) || pythonFalsy(expected)) return 0;
  try {
    return normalizePython(readPythonText(String(result))) === normalizePython(readPythonText(String(expected))) ? 1 : 0;
  } catch {
    return 0;
  }
}

function normalizePython(text: string): string {
  const lines = pythonSplitlines(text);
  let i = 0;
  while (i < lines.length && i < 3) {
    const s = pythonStrip(lines[i]);
    if (s.startsWith('#!') || s.startsWith('# -*- coding:') || s.startsWith('# coding:') || s.startsWith('# coding=')) i++;
    else break;
  }
  const kept: string[] = [];
  for (; i < lines.length; i++) {
    if (pythonStrip(lines[i])) kept.push(pythonExpandTabs(lines[i], 4).replace(/[\t\n\v\f\r \x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/, ''));
  }
  return kept.join('\n');
}

/** The terminal output (expected side) equals the text file's content exactly. */
export function compareTerminalAndTxt(result: unknown, expected: unknown): number {
  if (pythonFalsy(result) || pythonFalsy(expected)) return 0;
  return readPythonText(String(result)) === expected ? 1 : 0;
}

/**
 * VS Code's compare_result_files: when the gold parses as a number, the result passes if it contains the gold text or
 * its number is within 1e-4; otherwise the stripped texts must be equal.
 */
export function compareResultFiles(result: unknown, expected: unknown): number {
  if (pythonFalsy(result) || pythonFalsy(expected)) return 0;
  const src = pythonStrip(readPythonText(String(result)));
  const tgt = pythonStrip(readPythonText(String(expected)));
  const tgtNum = pythonFloat(tgt);
  if (tgtNum === undefined) return src === tgt ? 1 : 0;
  if (src.includes(tgt)) return 1;
  const srcNum = pythonFloat(src);
  // float(src) raising falls into the except branch, which compares the texts (already known to differ here).
  if (srcNum === undefined) return src === tgt ? 1 : 0;
  return Math.abs(srcNum - tgtNum) < 1e-4 ? 1 : 0;
}

export const textMetrics: Record<string, Metric> = {
  diff_text_file: diffTextFile,
  compare_text_file: compareTextFile,
  file_contains: fileContains,
  check_line_number: checkLineNumber,
  check_list: checkList,
  compare_python_pure_text: comparePythonPureText,
  compare_terminal_and_txt: compareTerminalAndTxt,
  compare_result_files: compareResultFiles,
};
