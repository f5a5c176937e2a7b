// Cell values the two ways OSWorld reads them:
// - openpyxl's worksheet reader (used by pandas for sheet_data and by the style checks): numbers become int or float,
//   numbers in date formats become datetime/time/timedelta, booleans, errors, and `=formula` text unless data_only;
// - OSWorld's own `read_cell_value` (sheet_fuzzy, check_cell value, conditional formats): raw XML, every number a
//   float, shared/inline/formula strings, error text; anything else None.
import { pythonStrip } from '../../../python/str.ts';
import { NONE, py, type PyValue } from '../../../python/values.ts';
import type { RawCell, Worksheet } from './sheet-xml.ts';
import { parseCellRef } from './sheet-xml.ts';
import type { Stylesheet } from './stylesheet.ts';
import { roundHalfEven } from '../../../python/round.ts';

/** openpyxl's `cell.data_type` after loading: n, s, b, e, d, f (formula, when not data_only), or inlineStr. */
export type DataType = 'n' | 's' | 'b' | 'e' | 'd' | 'f' | 'inlineStr' | 'str';

export interface OpenpyxlCell {
  value: PyValue;
  dataType: DataType;
}

const MS_PER_DAY = 86_400_000;
// 1899-12-30, openpyxl's WINDOWS_EPOCH; 1904-01-01 for date1904 books.
const WINDOWS_EPOCH = Date.UTC(1899, 11, 30);
export const MAC_EPOCH = Date.UTC(1904, 0, 1);

/** openpyxl `from_excel(value, epoch, timedelta)`. */
export function fromExcel(value: number, kind: 'date' | 'timedelta', epoch = WINDOWS_EPOCH): PyValue {
  if (kind === 'timedelta') return { t: 'timedelta', ms: Math.round(value * MS_PER_DAY) };
  let day = Math.floor(value);
  const fractionMs = roundHalfEven((value - day) * 86400 * 1000); // Python: round(fraction * SECS_PER_DAY * 1000)
  if (value >= 0 && value < 1 && fractionMs < MS_PER_DAY) return { t: 'time', ms: fractionMs };
  if (value > 0 && value < 60 && epoch === WINDOWS_EPOCH) day += 1;
  return { t: 'datetime', ms: epoch + day * MS_PER_DAY + fractionMs };
}

/** Python `float()` / openpyxl `_cast_number` of a `<v>` text. */
function castNumber(text: string): PyValue {
  if (/[.eE]/.test(text)) return py.float(Number(text));
  const n = Number(text);
  return Number.isNaN(n) ? py.float(n) : py.int(n);
}

/** The value openpyxl gives a cell (`load_workbook(data_only=…)`), with its data_type. */
export function openpyxlCell(
  cell: RawCell,
  styles: Stylesheet,
  sharedStrings: string[],
  dataOnly: boolean,
  epoch = WINDOWS_EPOCH,
): OpenpyxlCell {
  const raw = cell.type === 'inlineStr' ? undefined : cell.value || undefined;
  if (!dataOnly && cell.formula !== undefined) return { value: py.str(`=${cell.formula}`), dataType: 'f' };
  if (raw !== undefined) {
    switch (cell.type) {
      case 'n': {
        const number = castNumber(raw);
        const kind = styles.dateKind(cell.style);
        if (kind) return { value: fromExcel((number as { v: number }).v, kind, epoch), dataType: 'd' };
        return { value: number, dataType: 'n' };
      }
      case 's':
        return { value: py.str(sharedStrings[Number(raw)] ?? ''), dataType: 's' };
      case 'b':
        return { value: py.bool(Number(raw) !== 0), dataType: 'b' };
      case 'str':
        return { value: py.str(raw), dataType: 's' };
      case 'e':
        return { value: py.str(raw), dataType: 'e' };
      case 'd': {
        const ms = Date.parse(raw.endsWith('Z') || /[+-]\d\d:\d\d$/.test(raw) ? raw : `${raw}Z`);
        return { value: Number.isNaN(ms) ? NONE : { t: 'datetime', ms }, dataType: 'd' };
      }
      default:
        return { value: py.str(raw), dataType: cell.type as DataType };
    }
  }
  if (cell.type === 'inlineStr' && cell.inline !== undefined) return { value: py.str(cell.inline), dataType: 's' };
  return { value: NONE, dataType: cell.type as DataType };
}

/** xmltodict's text of an element: stripped, and None when nothing is left. */
function xmltodictText(text: string | undefined): PyValue {
  if (text === undefined) return NONE;
  const stripped = pythonStrip(text);
  return stripped === '' ? NONE : py.str(stripped);
}

/**
 * OSWorld `read_cell_value(xlsx, sheet, coordinate)` on an already located worksheet part (found by sheetId):
 * the first `<c r="coordinate">`; numbers as float, strings as text, errors as their text, anything else None.
 */
export function osworldCellValue(sheet: Worksheet | undefined, coordinate: string, sharedStrings: string[]): PyValue {
  if (!sheet) return NONE;
  const position = parseCellRef(coordinate);
  if (!position || /\$/.test(coordinate)) return NONE;
  const cell = sheet.lookup(position.row, position.col);
  if (!cell) return NONE;
  switch (cell.type) {
    case 'n': {
      if (cell.value === undefined) return NONE;
      const text = pythonStrip(cell.value);
      const number = text === '' ? Number.NaN : Number(text);
      return Number.isNaN(number) && !/^[+-]?nan$/i.test(text) ? NONE : py.float(number);
    }
    case 's': {
      if (cell.value === undefined) return NONE;
      const text = sharedStrings[Number(pythonStrip(cell.value))];
      return text === undefined ? NONE : py.str(text);
    }
    case 'str':
    case 'e':
      return xmltodictText(cell.value);
    case 'inlineStr':
      return xmltodictText(cell.inline);
    default:
      return NONE;
  }
}
