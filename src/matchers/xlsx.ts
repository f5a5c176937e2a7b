// toMatchXlsx: OSWorld's compare_table as an assertion. By default the workbooks' data are compared sheet by sheet,
// in order (sheet_data: pandas values rounded to 4 decimals; sheet names and styles are not compared), so a missing or
// extra sheet fails; `rules` takes compare_table rules as in a task file instead. The failure message names the rule,
// the sheet and the cell with both values.
import { compareTableDetailed, type TableFailure } from '../eval/metrics/xlsx/index.ts';
import { Workbook } from '../eval/formats/xlsx/workbook.ts';
import { defineMatcher, type MatcherVerdict } from './framework.ts';
import { MetricOptionsError } from '../eval/errors.ts';

export interface XlsxMatchOptions {
  /**
   * compare_table rules ({type: "sheet_data" | "sheet_name" | "style" | "check_cell" | …, …}); default: sheet_data for
   * every sheet position of either workbook (values only).
   */
  rules?: Record<string, unknown>[];
}

export function describeFailure(failure: TableFailure): string {
  const parts = [`rule ${failure.index !== undefined ? `#${failure.index} ` : ''}${failure.rule} failed`];
  if (failure.detail) parts.push(failure.detail);
  const where = [failure.sheet, failure.cell].filter(Boolean).join(' ');
  let message = parts.join(': ');
  if (where) message += `\n  at ${where}`;
  if (failure.actual !== undefined || failure.expected !== undefined) {
    message += `\n  received: ${failure.actual ?? '(nothing)'}\n  expected: ${failure.expected ?? '(nothing)'}`;
  }
  return message;
}

/** The check behind toMatchXlsx, usable on its own: `(received, expected, {rules}) → {pass, message}`. */
export async function matchXlsx(received: unknown, expected: unknown, options: XlsxMatchOptions = {}): Promise<MatcherVerdict> {
  if (typeof expected !== 'string') throw new MetricOptionsError('toMatchXlsx: the expected value must be an xlsx file path');
  let rules = options.rules;
  if (!rules) {
    const [want, got] = await Promise.all([Workbook.open(expected), Workbook.open(String(received)).catch(() => undefined)]);
    const sheets = Math.max(want.sheetNames.length, got?.sheetNames.length ?? 0);
    rules = Array.from({ length: sheets }, (_, index) => ({ type: 'sheet_data', sheet_idx0: `RI${index}`, sheet_idx1: `EI${index}` }));
  }
  const outcome = await compareTableDetailed(received, expected, { rules });
  if (outcome.score === 1) return { pass: true, message: `the workbook matches ${expected} on ${rules.length} rule(s)` };
  return { pass: false, message: describeFailure(outcome.failure ?? { rule: 'compare_table' }), actual: outcome.failure?.actual, expected: outcome.failure?.expected };
}

export const toMatchXlsx = defineMatcher('toMatchXlsx', (received: unknown, expected: string, options?: XlsxMatchOptions) => matchXlsx(received, expected, options), { golden: true });
