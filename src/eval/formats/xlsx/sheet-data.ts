// `pd.read_excel(book, sheet)` as OSWorld's sheet_data rule sees it, then `.round(precision)` and `DataFrame.equals`.
// The frame is built the way pandas' openpyxl reader and python parser build it:
// - rows from row 1 and columns from column A; each row trimmed of trailing empty cells, trailing empty rows dropped,
//   rows padded to the widest; empty cells are "" (→ NaN), error cells NaN, whole-number floats ints;
// - the first row is the header ("" → "Unnamed: i", duplicates "x.1"); blank lines are skipped only in one-column
//   sheets (a wider all-empty row is a row of NaN);
// - each column's dtype is inferred like `maybe_convert_numeric`: ints → int64, any float or missing value →
//   float64, only booleans → bool, numeric strings are converted, NA strings ("NA", "null", "#N/A"…) are missing,
//   anything else → object (then "TRUE"/"false"-only columns → bool, all-datetime columns → datetime64).
// `equals` requires the same shape, equal column labels and, column by column, the same dtype and equal values.
import { pythonFloatRepr } from '../../../python/repr.ts';
import { pythonStrip } from '../../../python/str.ts';
import { pythonEquals } from '../../../python/equality.ts';
import { NAN, equalityOperand, isNan, py, pyStr, type PyValue } from '../../../python/values.ts';
import { MAC_EPOCH, openpyxlCell } from './cell-values.ts';
import { cellName, columnLetter } from './sheet-xml.ts';
import { child, type XmlElement } from './xml.ts';
import { Workbook } from './workbook.ts';
import { roundHalfEven } from '../../../python/round.ts';
import { MalformedInputError } from '../../../errors.ts';

type Dtype = 'int64' | 'float64' | 'bool' | 'object' | 'datetime64' | 'timedelta64';

export interface Column {
  dtype: Dtype;
  values: PyValue[];
}

export interface Frame {
  columns: PyValue[];
  data: Column[];
  /** Sheet row number of each data row (for messages). */
  sourceRows: number[];
  /** Sheet row number of the header. */
  headerRow: number;
}

const EMPTY = py.str('');

// pandas' default na_values (STR_NA_VALUES).
const NA_STRINGS = new Set([
  '-1.#IND', '1.#QNAN', '1.#IND', '-1.#QNAN', '#N/A N/A', '#N/A', 'N/A', 'n/a', 'NA', '<NA>', '#NA', 'NULL', 'null',
  'NaN', '-NaN', 'nan', '-nan', 'None', '',
]);

export function bookEpoch(workbookXml: XmlElement): number | undefined {
  const date1904 = child(workbookXml, 'workbookPr')?.attrs.date1904;
  return date1904 && ['1', 'true'].includes(date1904.toLowerCase()) ? MAC_EPOCH : undefined;
}

/** `pd.read_excel(path, sheet_name)`; null when the sheet does not exist (OSWorld's `_load_sheet` gives None). */
export async function readExcelFrame(book: Workbook, sheetName: string): Promise<Frame | null> {
  const sheet = await book.worksheet(sheetName);
  if (!sheet) return null;
  const styles = await book.styles();
  const strings = (await book.sharedStrings()).openpyxl;
  const epoch = bookEpoch(book.workbookXml);

  // openpyxl read-only rows (from row 1, cells from column A), converted by pandas' _convert_cell.
  const byRow = new Map<number, PyValue[]>();
  let lastRow = 0;
  for (const cell of sheet.cells) {
    const { value, dataType } = openpyxlCell(cell, styles, strings, true, epoch);
    let converted: PyValue;
    if (value.t === 'none') converted = EMPTY;
    else if (dataType === 'e') converted = NAN;
    else if (value.t === 'int' || value.t === 'float') converted = Number.isInteger(value.v) ? py.int(value.v) : py.float(value.v);
    else converted = value;
    let row = byRow.get(cell.row);
    if (!row) byRow.set(cell.row, (row = []));
    row[cell.col - 1] = converted;
    lastRow = Math.max(lastRow, cell.row);
  }
  for (const row of sheet.rows) lastRow = Math.max(lastRow, row.index);
  let lines: { values: PyValue[]; row: number }[] = [];
  let lastWithData = -1;
  for (let r = 1; r <= lastRow; r++) {
    const values = Array.from(byRow.get(r) ?? [], (v) => v ?? EMPTY);
    while (values.length && isEmptyString(values[values.length - 1])) values.pop();
    if (values.length) lastWithData = r - 1;
    lines.push({ values, row: r });
  }
  lines = lines.slice(0, lastWithData + 1);
  if (!lines.length) return { columns: [], data: [], sourceRows: [], headerRow: 1 };
  const width = Math.max(...lines.map((l) => l.values.length));
  for (const line of lines) while (line.values.length < width) line.values.push(EMPTY);
  // skip_blank_lines: only a one-field line can be blank.
  if (width === 1) lines = lines.filter((l) => !(l.values[0].t === 'str' && pythonStrip(l.values[0].v) === ''));
  if (!lines.length) return { columns: [], data: [], sourceRows: [], headerRow: 1 };

  const [header, ...body] = lines;
  const columns = dedupNames(header.values.map((v, i) => (isEmptyString(v) ? py.str(`Unnamed: ${i}`) : v)));
  const data = columns.map((_, j) => inferColumn(body.map((line) => line.values[j])));
  return { columns, data, sourceRows: body.map((l) => l.row), headerRow: header.row };
}

function isEmptyString(value: PyValue): boolean {
  return value.t === 'str' && value.v === '';
}

function hashKey(value: PyValue): string {
  if (value.t === 'int' || value.t === 'float' || value.t === 'bool') {
    return isNan(value) ? `nan:${Math.random()}` : `n:${Number(value.v)}`;
  }
  return `${value.t}:${pyStr(value)}`;
}

/** pandas `dedup_names`: a repeated label x becomes "x.1", "x.2"… */
function dedupNames(names: PyValue[]): PyValue[] {
  const counts = new Map<string, number>();
  return names.map((name) => {
    let col = name;
    let current = counts.get(hashKey(col)) ?? 0;
    while (current > 0) {
      counts.set(hashKey(col), current + 1);
      col = py.str(`${pyStr(col)}.${current}`);
      current = counts.get(hashKey(col)) ?? 0;
    }
    counts.set(hashKey(col), current + 1);
    return col;
  });
}

const NUMERIC_STRING = /^\s*[+-]?(\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|inf|infinity)\s*$/i;

/** dtype inference of one parsed column (python parser `_infer_types` + DataFrame construction). */
export function inferColumn(values: PyValue[]): Column {
  if (!values.length) return { dtype: 'object', values: [] };
  let sawNull = false;
  let sawFloat = false;
  let sawInt = false;
  let sawBool = false;
  const numbers: number[] = [];
  let numeric = true;
  for (const value of values) {
    if (value.t === 'str' && NA_STRINGS.has(value.v)) {
      sawNull = true;
      numbers.push(Number.NaN);
    } else if (value.t === 'float') {
      if (Number.isNaN(value.v)) sawNull = true;
      sawFloat = true;
      numbers.push(value.v);
    } else if (value.t === 'int') {
      sawInt = true;
      numbers.push(value.v);
    } else if (value.t === 'bool') {
      sawBool = true;
      numbers.push(value.v ? 1 : 0);
    } else if (value.t === 'str' && NUMERIC_STRING.test(value.v)) {
      const text = value.v.trim();
      const n = /inf/i.test(text) ? (text.startsWith('-') ? -Infinity : Infinity) : Number(text);
      if (/[.eEnN]/.test(text)) sawFloat = true;
      else sawInt = true;
      numbers.push(n);
    } else {
      numeric = false;
      break;
    }
  }
  if (numeric) {
    if (sawFloat || sawNull) return { dtype: 'float64', values: numbers.map((n) => py.float(n)) };
    if (sawInt) return { dtype: 'int64', values: numbers.map((n) => py.int(n)) };
    if (sawBool) return { dtype: 'bool', values: numbers.map((n) => py.bool(n === 1)) };
  }
  // Object column: NA strings become NaN (sanitize_objects) …
  const objects = values.map((v) => (v.t === 'str' && NA_STRINGS.has(v.v) ? NAN : v));
  // … true/false-only columns become bool (maybe_convert_bool), object when one is missing …
  const asBool = objects.map((v) => (v.t === 'bool' ? v : v.t === 'str' ? BOOL_STRINGS[v.v] : isNan(v) ? NAN : undefined));
  if (asBool.every((v) => v !== undefined)) {
    return asBool.some((v) => isNan(v as PyValue))
      ? { dtype: 'object', values: asBool as PyValue[] }
      : { dtype: 'bool', values: asBool as PyValue[] };
  }
  // … and the DataFrame constructor turns all-datetime (or all-timedelta) columns into datetime64 (timedelta64).
  const present = objects.filter((v) => !isNan(v));
  if (present.length && present.every((v) => v.t === 'datetime')) return { dtype: 'datetime64', values: objects };
  if (present.length && present.every((v) => v.t === 'timedelta')) return { dtype: 'timedelta64', values: objects };
  return { dtype: 'object', values: objects };
}

const BOOL_STRINGS: Record<string, PyValue | undefined> = {
  True: py.bool(true), TRUE: py.bool(true), true: py.bool(true),
  False: py.bool(false), FALSE: py.bool(false), false: py.bool(false),
};

/** numpy `round(x, decimals)`: scale, round half to even (rint), unscale. */
export function numpyRound(x: number, decimals: number): number {
  if (!Number.isFinite(x)) return x;
  if (decimals >= 0) {
    const f = 10 ** decimals;
    return roundHalfEven(x * f) / f;
  }
  const f = 10 ** -decimals;
  return roundHalfEven(x / f) * f;
}

/** `DataFrame.round(precision)`: float columns (and int columns for negative precision) only. */
export function roundFrame(frame: Frame, precision: number): Frame {
  const data = frame.data.map((column): Column => {
    if (column.dtype === 'float64') return { dtype: 'float64', values: column.values.map((v) => py.float(numpyRound((v as { v: number }).v, precision))) };
    if (column.dtype === 'int64' && precision < 0) return { dtype: 'int64', values: column.values.map((v) => py.int(numpyRound((v as { v: number }).v, precision))) };
    return column;
  });
  return { ...frame, data };
}

function sameValue(a: PyValue, b: PyValue): boolean {
  return pythonEquals(equalityOperand(a), equalityOperand(b)) || (isNan(a) && isNan(b)) || (a.t === 'none' && b.t === 'none');
}

export interface FrameDifference {
  /** Cell address in the first sheet (header cell for label differences), or undefined for a shape difference. */
  cell?: string;
  expected: string;
  actual: string;
  reason: string;
}

/** `DataFrame.equals`; returns undefined when equal, else the first difference found. */
export function frameDifference(actual: Frame, expected: Frame): FrameDifference | undefined {
  const shape = (f: Frame) => `${f.sourceRows.length} rows × ${f.columns.length} columns`;
  if (actual.columns.length !== expected.columns.length || actual.sourceRows.length !== expected.sourceRows.length) {
    return { reason: 'shape differs', actual: shape(actual), expected: shape(expected) };
  }
  for (let j = 0; j < actual.columns.length; j++) {
    if (!sameValue(actual.columns[j], expected.columns[j])) {
      return { reason: 'column label differs', cell: cellName(actual.headerRow, j + 1), actual: describe(actual.columns[j]), expected: describe(expected.columns[j]) };
    }
  }
  for (let j = 0; j < actual.columns.length; j++) {
    const a = actual.data[j];
    const e = expected.data[j];
    for (let i = 0; i < a.values.length; i++) {
      if (!sameValue(a.values[i], e.values[i])) {
        return { reason: 'value differs', cell: cellName(actual.sourceRows[i], j + 1), actual: describe(a.values[i]), expected: describe(e.values[i]) };
      }
    }
    if (a.dtype !== e.dtype) {
      return {
        reason: `column ${columnLetter(j + 1)} (${pyStr(actual.columns[j])}) has dtype ${a.dtype}, expected ${e.dtype}`,
        actual: a.dtype,
        expected: e.dtype,
      };
    }
  }
  return undefined;
}

function describe(value: PyValue): string {
  if (value.t === 'str') return JSON.stringify(value.v);
  if (isNan(value)) return 'NaN (empty)';
  return pyStr(value);
}

/** `str()` of each value of the last row, as `df.iloc[-1].astype(str).tolist()` prints them. */
function lastRowStrings(frame: Frame): string[] {
  const last = frame.sourceRows.length - 1;
  if (last < 0) throw new MalformedInputError('the first sheet has no data row below its header (pandas: single positional indexer is out-of-bounds)');
  return frame.data.map((column) => {
    const value = column.values[last];
    if (isNan(value)) return column.dtype === 'datetime64' || column.dtype === 'timedelta64' ? 'NaT' : 'nan';
    if (column.dtype === 'float64') return pythonFloatRepr((value as { v: number }).v);
    if (column.dtype === 'timedelta64' && value.t === 'timedelta') return pandasTimedelta(value.ms);
    return pyStr(value);
  });
}

function pandasTimedelta(ms: number): string {
  const days = Math.floor(ms / 86_400_000);
  const rest = ms - days * 86_400_000;
  const s = Math.floor(rest / 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  const frac = rest % 1000 ? `.${String((rest % 1000) * 1000).padStart(6, '0')}` : '';
  return `${days} days ${pad(Math.floor(s / 3600))}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}${frac}`;
}

/** content_from_vm_file's xlsx mode: `pd.read_excel(path).iloc[-1].astype(str).tolist()` (first sheet). */
export async function xlsxLastRow(file: string): Promise<string[]> {
  const book = await Workbook.open(file);
  const first = book.sheetNames[0];
  if (first === undefined) throw new MalformedInputError(`${book.file}: the workbook has no worksheet`);
  const frame = await readExcelFrame(book, first);
  if (!frame) throw new MalformedInputError(`${book.file}: cannot read sheet ${first}`);
  return lastRowStrings(frame);
}

