// compare_table(result, expected?, {rules}): OSWorld's spreadsheet check. Rules run in order and are ANDed; the
// first failing rule ends the comparison. A missing or unreadable result scores 0. `compareTableDetailed` also says
// what failed (rule, sheet, cell, both values) for toMatchXlsx's message; the registered metric returns the score.
import { matchValueToRule, type ValueRule } from '../rule-match.ts';
import { pythonEquals } from '../../../python/equality.ts';
import type { Metric, Options } from '../../registry.ts';
import { osworldCellValue } from '../../formats/xlsx/cell-values.ts';
import { readCellStyle, type StyleValue } from '../../formats/xlsx/cell-style.ts';
import { loadCharts } from '../../formats/xlsx/chart.ts';
import { checkValidators, readValidators } from './data-validation.ts';
import { loadRowsOrCols } from '../../formats/xlsx/dimensions.ts';
import { loadFilters } from '../../formats/xlsx/filter.ts';
import { loadOpenpyxlSheet } from '../../formats/xlsx/openpyxl-sheet.ts';
import { loadPivotTables } from '../../formats/xlsx/pivot.ts';
import { toPlain } from '../../../python/values.ts';
import { frameDifference, readExcelFrame, roundFrame } from '../../formats/xlsx/sheet-data.ts';
import { fuzzyFailure, type FuzzyRule } from './sheet-fuzzy.ts';
import { printedDifference, readPrintedSheet } from './sheet-print.ts';
import { freezeKey, zoomScale } from '../../formats/xlsx/sheet-view.ts';
import { parseCellRef } from '../../formats/xlsx/sheet-xml.ts';
import { loadSparklines } from '../../formats/xlsx/sparkline.ts';
import { loadXlsxStyles, showStyle, styleDifference } from './style.ts';
import { parseSheetRef, tryOpenWorkbook, Workbook, type SheetRef } from '../../formats/xlsx/workbook.ts';
import { MetricOptionsError } from '../../errors.ts';
import { MalformedInputError } from '../../../errors.ts';

export interface TableFailure {
  /** The rule type ("sheet_data", …) or "load" when the result cannot be read. */
  rule: string;
  /** Index of the failing rule in `rules`. */
  index?: number;
  /** "result:Sheet1" / "expected:Sheet1" (both sides for two-sheet rules). */
  sheet?: string;
  cell?: string;
  expected?: string;
  actual?: string;
  detail?: string;
}

export interface TableComparison {
  score: number;
  failure?: TableFailure;
}

type Rule = Record<string, unknown> & { type: string };

interface Books {
  result: Workbook;
  expected: Workbook | null;
  resultPath: string;
  expectedPath: string | null;
}

function label(ref: SheetRef): string {
  return `${ref.book}:${ref.name}`;
}

function show(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'object') return showStyle(value as StyleValue) === '[object Object]' ? JSON.stringify(value) : showStyle(value as StyleValue);
  return String(value);
}

/** The first differing key of two dicts of dicts (charts, pivots, dimensions, sparklines, filters). */
function dictDifference(actual: Record<string, unknown>, expected: Record<string, unknown>): { key: string; actual: string; expected: string } | undefined {
  for (const key of new Set([...Object.keys(expected), ...Object.keys(actual)])) {
    if (!(key in actual)) return { key, actual: '(missing)', expected: JSON.stringify(expected[key]) };
    if (!(key in expected)) return { key, actual: JSON.stringify(actual[key]), expected: '(missing)' };
    if (!pythonEquals(actual[key], expected[key])) return { key, actual: JSON.stringify(actual[key]), expected: JSON.stringify(expected[key]) };
  }
  return undefined;
}

export async function compareTableDetailed(result: unknown, expected: unknown, options: Options): Promise<TableComparison> {
  const resultBook = await tryOpenWorkbook(result);
  if (!resultBook) return { score: 0, failure: { rule: 'load', detail: `the result ${JSON.stringify(result)} is missing or is not a readable xlsx` } };
  let expectedBook: Workbook | null = null;
  if (expected !== undefined && expected !== null) {
    if (typeof expected !== 'string') throw new MetricOptionsError(`compare_table: expected must be an xlsx path, got ${JSON.stringify(expected)}`);
    expectedBook = await Workbook.open(expected);
  }
  const rules = options.rules;
  if (!Array.isArray(rules)) throw new MetricOptionsError('compare_table: options.rules must be a list of rules ({type, …})');
  const books: Books = { result: resultBook, expected: expectedBook, resultPath: result as string, expectedPath: (expected as string) ?? null };
  for (const [index, rule] of (rules as Rule[]).entries()) {
    if (!rule || typeof rule.type !== 'string') throw new MetricOptionsError(`compare_table: rules[${index}] has no "type"`);
    const failure = await checkRule(rule, books);
    if (failure) return { score: 0, failure: { ...failure, rule: rule.type, index } };
  }
  return { score: 1 };
}

export const compareTable: Metric = async (result, expected, options) => (await compareTableDetailed(result, expected, options)).score;

type Failure = Omit<TableFailure, 'rule'> | undefined;

function sideOf(ref: SheetRef, books: Books): { book: Workbook; path: string } {
  return ref.book === 'result' ? { book: books.result, path: books.resultPath } : { book: books.expected as Workbook, path: books.expectedPath as string };
}

async function checkRule(rule: Rule, books: Books): Promise<Failure> {
  const ref = (key: string) => {
    if (!(key in rule)) throw new MetricOptionsError(`compare_table: rule "${rule.type}" needs "${key}"`);
    return parseSheetRef(rule[key], books.result, books.expected);
  };
  const pair = () => {
    const a = ref('sheet_idx0');
    const b = ref('sheet_idx1');
    return { a, b, sheet: `${label(a)} vs ${label(b)}`, first: sideOf(a, books), second: sideOf(b, books) };
  };
  switch (rule.type) {
    case 'sheet_name': {
      const actual = books.result.sheetNames;
      const expected = books.expected?.sheetNames ?? null;
      if (pythonEquals(actual, expected)) return undefined;
      return { actual: JSON.stringify(actual), expected: JSON.stringify(expected), detail: 'sheet names differ' };
    }
    case 'sheet_data': {
      const { a, b, sheet, first, second } = pair();
      const precision = typeof rule.precision === 'number' ? rule.precision : 4;
      const frame1 = await readExcelFrame(first.book, a.name);
      if (!frame1) return { sheet, detail: `sheet ${label(a)} cannot be read` };
      const frame2 = await readExcelFrame(second.book, b.name);
      if (!frame2) throw new MalformedInputError(`compare_table: sheet ${label(b)} cannot be read`);
      const difference = frameDifference(roundFrame(frame1, precision), roundFrame(frame2, precision));
      if (!difference) return undefined;
      return { sheet, cell: difference.cell, actual: difference.actual, expected: difference.expected, detail: difference.reason };
    }
    case 'sheet_print': {
      const { a, b, sheet, first, second } = pair();
      let lines1 = await readPrintedSheet(first.path, a.name);
      if (!lines1) return { sheet, detail: `no CSV export next to ${first.path} for sheet "${a.name}"` };
      let lines2 = await readPrintedSheet(second.path, b.name);
      if (!lines2) return { sheet, detail: `no CSV export next to ${second.path} for sheet "${b.name}"` };
      if (rule.ignore_case) {
        lines1 = lines1.map((l) => l.toLowerCase());
        lines2 = lines2.map((l) => l.toLowerCase());
      }
      const difference = printedDifference(lines1, lines2);
      if (!difference) return undefined;
      return { sheet, cell: `line ${difference.line}`, actual: JSON.stringify(difference.actual), expected: JSON.stringify(difference.expected), detail: 'printed (CSV) line differs' };
    }
    case 'sheet_fuzzy': {
      const { a, b, sheet, first, second } = pair();
      const side = async (s: { book: Workbook }, r: SheetRef) => ({ sheet: await s.book.worksheetBySheetId(r.name), strings: (await s.book.sharedStrings()).osworld });
      const side1 = await side(first, a);
      const side2 = await side(second, b);
      if (!Array.isArray(rule.rules)) throw new MetricOptionsError('compare_table: sheet_fuzzy needs "rules": [{range, type, …}]');
      for (const fuzzy of rule.rules as FuzzyRule[]) {
        const failure = fuzzyFailure(fuzzy, side1, side2);
        if (failure) return { sheet, cell: failure.cell, actual: JSON.stringify(failure.actual), expected: JSON.stringify(failure.expected), detail: `${fuzzy.type} fails` };
      }
      return undefined;
    }
    case 'sparkline': {
      const { a, b, sheet, first, second } = pair();
      const difference = dictDifference(await loadSparklines(first.book, a.name), await loadSparklines(second.book, b.name));
      return difference && { sheet, cell: difference.key, actual: difference.actual, expected: difference.expected, detail: 'sparkline differs' };
    }
    case 'chart': {
      const { a, b, sheet, first, second } = pair();
      const props = (rule.chart_props as string[] | undefined) ?? [];
      const difference = dictDifference(await loadCharts(first.book, a.name, props), await loadCharts(second.book, b.name, props));
      return difference && { sheet, detail: `chart with series "${difference.key}" differs`, actual: difference.actual, expected: difference.expected };
    }
    case 'style': {
      const { a, b, sheet, first, second } = pair();
      const props = (rule.props as string[] | undefined) ?? [];
      const difference = styleDifference(await loadXlsxStyles(first.book, a.name, props), await loadXlsxStyles(second.book, b.name, props), props);
      return difference && { sheet, cell: difference.cell, actual: difference.actual, expected: difference.expected, detail: difference.prop ? `style ${difference.prop} differs` : 'cell sets differ' };
    }
    case 'freeze': {
      const { a, b, sheet, first, second } = pair();
      const sheet1 = await first.book.worksheet(a.name);
      if (!sheet1) return { sheet, detail: `sheet ${label(a)} cannot be read` };
      const sheet2 = await second.book.worksheet(b.name);
      if (!sheet2) throw new MalformedInputError(`compare_table: sheet ${label(b)} cannot be read`);
      const key1 = freezeKey(sheet1);
      const key2 = freezeKey(sheet2);
      if (pythonEquals(key1, key2)) return undefined;
      return { sheet, actual: JSON.stringify(key1), expected: JSON.stringify(key2), detail: 'freeze panes differ ([state, xSplit, ySplit])' };
    }
    case 'zoom': {
      const r = ref('sheet_idx');
      const sheet = await sideOf(r, books).book.worksheet(r.name);
      if (!sheet) return { sheet: label(r), detail: `sheet ${label(r)} cannot be read` };
      const zoom = zoomScale(sheet);
      if (matchValueToRule(zoom, rule as unknown as ValueRule)) return undefined;
      return { sheet: label(r), actual: String(zoom), expected: `${rule.method} ${JSON.stringify(rule.ref)}`, detail: 'zoom does not match' };
    }
    case 'data_validation': {
      const r = ref('sheet_idx');
      const sheet = await sideOf(r, books).book.worksheet(r.name);
      if (!sheet) return { sheet: label(r), detail: `sheet ${label(r)} cannot be read` };
      const validators = readValidators(sheet);
      const dvProps = rule.dv_props as Record<string, ValueRule>[];
      if (!Array.isArray(dvProps)) throw new MetricOptionsError('compare_table: data_validation needs "dv_props": [{attr: {method, ref}}]');
      const outcome = checkValidators(validators, dvProps);
      if (outcome.pass) return undefined;
      return outcome.failing
        ? { sheet: label(r), cell: String(outcome.failing.sqref), actual: JSON.stringify(outcome.failing), expected: JSON.stringify(dvProps), detail: 'a validator matches no dv_props entry' }
        : { sheet: label(r), actual: `${validators.length} validators`, expected: `at least ${dvProps.length}`, detail: 'too few data validators' };
    }
    case 'row_props':
    case 'col_props': {
      const { a, b, sheet, first, second } = pair();
      const obj = rule.type === 'row_props' ? 'row' : 'column';
      const props = (rule.props as string[] | undefined) ?? [];
      const difference = dictDifference(
        loadRowsOrCols(await first.book.worksheet(a.name), obj, props),
        loadRowsOrCols(await second.book.worksheet(b.name), obj, props),
      );
      return difference && { sheet, cell: `${obj} ${difference.key}`, actual: difference.actual, expected: difference.expected, detail: `${obj} properties differ` };
    }
    case 'filter': {
      const { a, b, sheet, first, second } = pair();
      const difference = dictDifference(loadFilters(await first.book.worksheet(a.name)), loadFilters(await second.book.worksheet(b.name)));
      return difference && { sheet, cell: difference.key, actual: difference.actual, expected: difference.expected, detail: `auto filter ${difference.key} differs` };
    }
    case 'pivot_table': {
      const { a, b, sheet, first, second } = pair();
      const props = (rule.pivot_props as string[] | undefined) ?? [];
      const difference = dictDifference(await loadPivotTables(first.book, a.name, props), await loadPivotTables(second.book, b.name, props));
      return difference && { sheet, detail: `pivot table with source "${difference.key}" differs`, actual: difference.actual, expected: difference.expected };
    }
    case 'check_cell':
      return checkCell(rule, books, ref('sheet_idx'));
    default:
      throw new MetricOptionsError(`compare_table: unimplemented sheet check "${rule.type}"`);
  }
}

async function checkCell(rule: Rule, books: Books, r: SheetRef): Promise<Failure> {
  const { book } = sideOf(r, books);
  const coordinate = String(rule.coordinate);
  const sheet = await loadOpenpyxlSheet(book, r.name);
  if (!sheet) return { sheet: label(r), cell: coordinate, detail: `sheet ${label(r)} cannot be read` };
  const props = rule.props as Record<string, ValueRule>;
  if (!props || typeof props !== 'object') throw new MetricOptionsError('compare_table: check_cell needs "props": {value|<style>: {method, ref}}');
  const position = parseCellRef(coordinate);
  for (const [prop, valueRule] of Object.entries(props)) {
    let value: unknown = null;
    try {
      if (prop === 'value') {
        value = toPlain(osworldCellValue(await book.worksheetBySheetId(r.name), coordinate, (await book.sharedStrings()).osworld));
      } else {
        if (!position) throw new MetricOptionsError(`not a cell: ${coordinate}`);
        value = readCellStyle(prop, sheet, sheet.cell(position.row, position.col));
      }
    } catch {
      value = null; // OSWorld logs the error and matches None
    }
    let matched: boolean;
    try {
      matched = matchValueToRule(value, valueRule);
    } catch (error) {
      return { sheet: label(r), cell: coordinate, actual: show(value), expected: JSON.stringify(valueRule), detail: `${prop}: ${(error as Error).message}` };
    }
    if (!matched) return { sheet: label(r), cell: coordinate, actual: show(value), expected: `${valueRule.method} ${JSON.stringify(valueRule.ref)}`, detail: `${prop} does not match` };
  }
  return undefined;
}
