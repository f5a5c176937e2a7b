// sheet_fuzzy: cell-by-cell comparison of `str(read_cell_value(...))` over ranges, after normalisation, with
// includes / included_by / fuzzy_match (rapidfuzz ratio ≥ threshold) / exact_match.
import { fuzzRatio } from '../text-similarity.ts';
import { osworldCellValue } from '../../formats/xlsx/cell-values.ts';
import { pythonLstrip, pythonRstrip } from '../../../python/str.ts';
import { pyStr } from '../../../python/values.ts';
import { cellName, parseCellRef, type Worksheet } from '../../formats/xlsx/sheet-xml.ts';
import { MetricOptionsError } from '../../errors.ts';

export interface FuzzyRule {
  range: string | string[];
  type: 'includes' | 'included_by' | 'fuzzy_match' | 'exact_match';
  threshold?: number;
  ignore_case?: boolean;
  ignore_chars?: string;
  trim_leadings?: string | null;
  trim_trailings?: string | null;
  normalization?: [string, string][];
}

export interface FuzzySide {
  sheet: Worksheet | undefined;
  strings: string[];
}

/** Cells of a MultiCellRange given as "A1:B6 C2" or ["A1:B6", "C2"], row by row. */
function rangeCells(range: string | string[]): string[] {
  const parts = (Array.isArray(range) ? range : [range]).flatMap((r) => String(r).split(/\s+/)).filter(Boolean);
  const cells: string[] = [];
  for (const part of parts) {
    const [from, to = from] = part.split(':');
    const a = parseCellRef(from);
    const b = parseCellRef(to);
    if (!a || !b) throw new MetricOptionsError(`sheet_fuzzy: "${part}" is not a cell range`);
    for (let r = Math.min(a.row, b.row); r <= Math.max(a.row, b.row); r++)
      for (let c = Math.min(a.col, b.col); c <= Math.max(a.col, b.col); c++) cells.push(cellName(r, c));
  }
  return cells;
}

function normalise(value: string, rule: FuzzyRule): string {
  for (const [from, to] of rule.normalization ?? []) value = value.split(from).join(to);
  if ('trim_leadings' in rule) value = rule.trim_leadings == null ? pythonLstrip(value) : pythonLstrip(value, rule.trim_leadings);
  if ('trim_trailings' in rule) value = rule.trim_trailings == null ? pythonRstrip(value) : pythonRstrip(value, rule.trim_trailings);
  if (rule.ignore_chars !== undefined) {
    const ignored = new Set(rule.ignore_chars);
    value = Array.from(value).filter((ch) => !ignored.has(ch)).join('');
  }
  if (rule.ignore_case) value = value.toLowerCase();
  return value;
}

/** The first failing cell of one fuzzy rule, or undefined when every cell passes. */
export function fuzzyFailure(rule: FuzzyRule, first: FuzzySide, second: FuzzySide): { cell: string; actual: string; expected: string } | undefined {
  if (!['includes', 'included_by', 'fuzzy_match', 'exact_match'].includes(rule.type)) {
    throw new MetricOptionsError(`sheet_fuzzy: unknown type "${rule.type}" (expected includes, included_by, fuzzy_match or exact_match)`);
  }
  for (const cell of rangeCells(rule.range)) {
    const v1 = normalise(pyStr(osworldCellValue(first.sheet, cell, first.strings)), rule);
    const v2 = normalise(pyStr(osworldCellValue(second.sheet, cell, second.strings)), rule);
    let ok: boolean;
    switch (rule.type) {
      case 'includes':
        ok = v1.includes(v2);
        break;
      case 'included_by':
        ok = v2.includes(v1);
        break;
      case 'fuzzy_match':
        ok = fuzzRatio(v1, v2) >= (rule.threshold ?? 85);
        break;
      default:
        ok = v1 === v2;
    }
    if (!ok) return { cell, actual: v1, expected: v2 };
  }
  return undefined;
}
