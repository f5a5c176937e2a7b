// The style rule: OSWorld `load_xlsx_styles` builds {coordinate: [prop values]} for every cell of A1:(max col, max
// row), then overwrites the cells where a conditional format is active with the rule's dxf style.
import { absoluteRanges, compileFormula, XlError, type XlValue } from '../../formats/xlsx/cf-formula.ts';
import { osworldCellValue } from '../../formats/xlsx/cell-values.ts';
import { readCellStyle, type StyleValue } from '../../formats/xlsx/cell-style.ts';
import { loadOpenpyxlSheet } from '../../formats/xlsx/openpyxl-sheet.ts';
import type { PyValue } from '../../../python/values.ts';
import { cellName, parseCellRef } from '../../formats/xlsx/sheet-xml.ts';
import { children, type XmlElement } from '../../formats/xlsx/xml.ts';
import type { Workbook } from '../../formats/xlsx/workbook.ts';
import { MalformedInputError } from '../../../errors.ts';

export type StyleMap = Map<string, StyleValue[]>;

/** `load_xlsx_styles(workbook, sheet, book_path, props=…)`; an empty map for an unknown sheet. */
export async function loadXlsxStyles(book: Workbook, sheetName: string, props: string[]): Promise<StyleMap> {
  const sheet = await loadOpenpyxlSheet(book, sheetName);
  const styles: StyleMap = new Map();
  if (!sheet) return styles;
  for (let col = 1; col <= sheet.maxCol; col++) {
    for (let row = 1; row <= sheet.maxRow; row++) {
      const cell = sheet.cell(row, col);
      styles.set(cellName(row, col), props.map((p) => readCellStyle(p, sheet, cell)));
    }
  }
  const worksheet = await book.worksheet(sheetName);
  const rawSheet = await book.worksheetBySheetId(sheetName);
  const strings = (await book.sharedStrings()).osworld;
  const valueAt = (coordinate: string) => osworldCellValue(rawSheet, coordinate, strings);
  for (const format of children(worksheet?.meta, 'conditionalFormatting')) {
    const ranges = (format.attrs.sqref ?? '').split(/\s+/).filter(Boolean);
    for (const rule of children(format, 'cfRule')) {
      const isActive = activeTest(rule, valueAt);
      if (!isActive) continue;
      const dxf = rule.attrs.dxfId !== undefined ? sheet.styles.dxfs[Number(rule.attrs.dxfId)] : undefined;
      let nothings = 0;
      const active: { row: number; col: number }[] = [];
      for (const range of ranges) {
        const [from, to = from] = range.split(':');
        const a = parseCellRef(from);
        const b = parseCellRef(to);
        if (!a || !b) continue;
        scan: for (let row = a.row; row <= b.row; row++) {
          for (let col = a.col; col <= b.col; col++) {
            const value = valueAt(cellName(row, col));
            if (value.t === 'none') {
              nothings++; // never reset: after 50 empty cells, each range stops at its first empty cell
              if (nothings > 50) break scan;
              continue;
            }
            let satisfied = false;
            try {
              satisfied = isActive(value);
            } catch {
              satisfied = false;
            }
            if (satisfied) active.push({ row, col });
          }
        }
      }
      for (const { row, col } of active) {
        // openpyxl's DifferentialStyle; a rule without dxfId has dxf None, so the cell's own style is read.
        styles.set(cellName(row, col), props.map((p) => readCellStyle(p, sheet, sheet.cell(row, col), dxf)));
      }
    }
  }
  return styles;
}

function toXl(value: PyValue): XlValue {
  if (value.t === 'float' || value.t === 'int') return value.v;
  if (value.t === 'str') return value.v;
  if (value.t === 'bool') return value.v;
  return null;
}

type ActiveTest = (value: PyValue) => boolean;

/** The condition of one cfRule, or undefined when OSWorld skips the rule (unparsable formula, unsupported type). */
function activeTest(rule: XmlElement, valueAt: (coordinate: string) => PyValue): ActiveTest | undefined {
  const formulas = children(rule, 'formula').map((f) => f.text);
  const compiled = [];
  const argumentLists: XlValue[][] = [];
  for (const text of formulas) {
    try {
      compiled.push(compileFormula(text));
    } catch {
      return undefined;
    }
    argumentLists.push(
      absoluteRanges(text).map(({ from, to }) => {
        if (!to) return toXl(valueAt(from));
        const a = parseCellRef(from)!;
        const b = parseCellRef(to)!;
        const values: XlValue[] = [];
        for (let r = Math.min(a.row, b.row); r <= Math.max(a.row, b.row); r++)
          for (let c = Math.min(a.col, b.col); c <= Math.max(a.col, b.col); c++) values.push(toXl(valueAt(cellName(r, c))));
        return values;
      }),
    );
  }
  const type = rule.attrs.type;
  if (['expression', 'containsText', 'notContainsText', 'endsWith', 'beginsWith', 'containsErrors', 'notContainsErrors'].includes(type ?? '')) {
    const formula = compiled[0];
    if (!formula) return () => false;
    const args = argumentLists[0];
    return (value) => {
      // The function's inputs take the cell value, then the absolute references' values, positionally.
      const call = [toXl(value), ...args];
      if (call.length !== formula.inputs.length) return false;
      const result = formula.evaluate(new Map(formula.inputs.map((name, i) => [name, call[i]])));
      return pythonTruthy(result);
    };
  }
  if (type === 'cellIs') {
    let references: XlValue[];
    try {
      references = compiled.map((f) => {
        if (f.inputs.length) throw new MalformedInputError('a reference needs an input');
        return f.evaluate(new Map());
      });
    } catch {
      return undefined;
    }
    const operator = rule.attrs.operator ?? '';
    return (value) => cfOperator(operator, value, references);
  }
  return undefined; // top10, aboveAverage, duplicateValues, colorScale, dataBar…: not evaluated by OSWorld
}

function pythonTruthy(value: XlValue): boolean {
  if (Array.isArray(value)) return value.length ? pythonTruthy(value[0]) : false;
  if (value instanceof XlError) return true; // the error token is a non-empty string
  return Boolean(value);
}

/** OSWorld `_process_xlsx_cf_operator` with Python comparisons (number vs text: == False, ordering TypeError → False). */
function cfOperator(operator: string, value: PyValue, refs: XlValue[]): boolean {
  const v: number | string | null = value.t === 'float' || value.t === 'int' ? value.v : value.t === 'str' ? value.v : null;
  const lt = (a: unknown, b: unknown): boolean | undefined => {
    if (typeof a === 'number' && typeof b === 'number') return a < b;
    if (typeof a === 'string' && typeof b === 'string') return a < b;
    if (typeof a === 'boolean' || typeof b === 'boolean') return lt(typeof a === 'boolean' ? Number(a) : a, typeof b === 'boolean' ? Number(b) : b);
    return undefined; // TypeError
  };
  const eq = (a: unknown, b: unknown) => (typeof a === typeof b || (typeof a !== 'string' && typeof b !== 'string') ? a === b : false);
  const ref = refs.map((r) => (Array.isArray(r) ? r[0] : r instanceof XlError ? r.code : r));
  if (['lessThan', 'lessThanOrEqual', 'equal', 'greaterThanOrEqual', 'notEqual', 'greaterThan'].includes(operator) && ref.length < 1) return false;
  const r0 = ref[0];
  const orFalse = (x: boolean | undefined) => x ?? false;
  switch (operator) {
    case 'lessThan':
      return orFalse(lt(v, r0));
    case 'lessThanOrEqual':
      return orFalse(eq(v, r0) || lt(v, r0));
    case 'equal':
      return eq(v, r0);
    case 'notEqual':
      return !eq(v, r0);
    case 'greaterThan':
      return orFalse(lt(r0, v));
    case 'greaterThanOrEqual':
      return orFalse(eq(v, r0) || lt(r0, v));
    case 'between':
    case 'notBetween': {
      if (ref.length < 1) return false;
      const sorted = [...ref].sort((a, b) => (orFalse(lt(a, b)) ? -1 : orFalse(lt(b, a)) ? 1 : 0));
      const [low, high] = [sorted[0], sorted[sorted.length - 1]];
      const inside = !(orFalse(lt(v, low)) || orFalse(lt(high, v)));
      const comparable = lt(v, low) !== undefined && lt(high, v) !== undefined;
      if (!comparable) return false;
      return operator === 'between' ? inside : !inside;
    }
    default:
      return false;
  }
}

/** Equality of two style maps (dict ==), with the first differing cell for messages. */
export function styleDifference(actual: StyleMap, expected: StyleMap, props: string[]):
  | { cell: string; prop?: string; actual: string; expected: string }
  | undefined {
  for (const [cell, values] of expected) {
    const mine = actual.get(cell);
    if (!mine) return { cell, actual: '(no cell)', expected: 'a cell' };
    for (let i = 0; i < values.length; i++) {
      if (!styleEquals(mine[i], values[i])) return { cell, prop: props[i], actual: showStyle(mine[i]), expected: showStyle(values[i]) };
    }
  }
  for (const cell of actual.keys()) if (!expected.has(cell)) return { cell, actual: 'a cell', expected: '(no cell)' };
  return undefined;
}

function styleEquals(a: StyleValue, b: StyleValue): boolean {
  if (a === b) return true;
  if (a && b && typeof a === 'object' && typeof b === 'object') return JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
  if (typeof a === 'boolean' || typeof b === 'boolean' || typeof a === 'number' || typeof b === 'number') {
    return (typeof a === 'boolean' || typeof a === 'number') && (typeof b === 'boolean' || typeof b === 'number') && Number(a) === Number(b);
  }
  return false;
}

function sortKeys(o: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).sort(([x], [y]) => (x < y ? -1 : 1)));
}

export function showStyle(value: StyleValue): string {
  if (value === null) return 'None';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'object' && 'ref' in value) return `Hyperlink(${JSON.stringify(value)})`;
  return String(value);
}

