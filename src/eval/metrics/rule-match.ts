// OSWorld's `_match_value_to_rule(value, {method, ref})` and `_match_record`, shared by check_cell, zoom,
// data_validation, check_json, check_mp3_meta, check_csv and the Thunderbird metrics.
import { pythonEquals } from '../../python/equality.ts';
import { pythonRegex } from '../../python/regex.ts';
import { MetricOptionsError } from '../errors.ts';

export interface ValueRule {
  method: string;
  ref: unknown;
}

export function matchValueToRule(value: unknown, rule: ValueRule): boolean {
  const { method, ref } = rule;
  if (method.startsWith('re')) {
    if (typeof value !== 'string' || typeof ref !== 'string') return false;
    return pythonRegex(ref, method.split('.').slice(1)).test(value);
  }
  switch (method) {
    case 'eq':
      return pythonEquals(value, ref);
    case 'ne':
      return !pythonEquals(value, ref);
    case 'lt':
      return compare(value, ref) < 0;
    case 'le':
      return compare(value, ref) <= 0;
    case 'gt':
      return compare(value, ref) > 0;
    case 'ge':
      return compare(value, ref) >= 0;
    case 'spreadsheet_range': {
      // openpyxl MultiCellRange containment: each range of the smaller side sits inside one range of the larger.
      const [subset, superset] = ref as [string, string];
      const ranges = parseRanges(String(value));
      return rangesWithin(parseRanges(subset), ranges) && rangesWithin(ranges, parseRanges(superset));
    }
    case 'str_list_eq':
      return typeof value === 'string' && pythonEquals(stripQuotes(value).split(','), ref);
    case 'str_set_eq': {
      if (typeof value !== 'string' || !Array.isArray(ref)) return false;
      const got = new Set(stripQuotes(value).split(','));
      const want = new Set(ref.map(String));
      return got.size === want.size && [...got].every((item) => want.has(item));
    }
  }
  if (method.startsWith('approx:')) {
    const tolerance = Number(method.slice('approx:'.length));
    return Math.abs(Number(value) - Number(ref)) <= tolerance;
  }
  if (method.startsWith('range.')) {
    const [low, high] = ref as [number, number];
    const v = Number(value);
    const left = method[6] === 't' ? low < v : low <= v;
    const right = method[7] === 't' ? v < high : v <= high;
    return left && right;
  }
  throw new MetricOptionsError(`unknown rule method "${method}" (expected re, eq, ne, lt, le, gt, ge, approx:T, range.XY, spreadsheet_range, str_list_eq or str_set_eq)`);
}

/**
 * `_match_value_to_rule` where Python would raise: `re.search` on a non-string, or `<`/`range` between a number and a
 * string or None. Callers that catch (check_json) score those 0, which differs from a plain non-match.
 */
export function matchValueToRuleStrict(value: unknown, rule: ValueRule): boolean {
  const method = String(rule.method);
  if (method.startsWith('re') && typeof value !== 'string') {
    throw new TypeError(`re.search: expected string, got ${value === null || value === undefined ? 'None' : typeof value}`);
  }
  const ordered = ['lt', 'le', 'gt', 'ge'].includes(method) || method.startsWith('range.');
  if (ordered) {
    const refs = method.startsWith('range.') ? (rule.ref as unknown[]) : [rule.ref];
    for (const ref of refs) {
      if (!orderable(value, ref)) throw new TypeError(`'<' not supported between ${JSON.stringify(value)} and ${JSON.stringify(ref)}`);
    }
  }
  if ((method === 'str_list_eq' || method === 'str_set_eq') && typeof value !== 'string') {
    throw new TypeError(`${method}: value must be a string, got ${JSON.stringify(value)}`);
  }
  return matchValueToRule(value, rule);
}

function orderable(a: unknown, b: unknown): boolean {
  const numeric = (v: unknown) => typeof v === 'number' || typeof v === 'boolean';
  return (numeric(a) && numeric(b)) || (typeof a === 'string' && typeof b === 'string');
}

/** OSWorld's `_match_record`: every key of the pattern is in the record with an equal value. */
export function matchRecord(pattern: Record<string, unknown>, record: Record<string, unknown>): boolean {
  return Object.entries(pattern).every(([k, v]) => Object.hasOwn(record, k) && pythonEquals(record[k], v));
}

function compare(a: unknown, b: unknown): number {
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  const x = Number(a);
  const y = Number(b);
  if (Number.isNaN(x) || Number.isNaN(y)) return Number.NaN;
  return x - y;
}

function stripQuotes(text: string): string {
  return text.replace(/^["']+|["']+$/g, '');
}

interface CellRange {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

/** A space-separated multi-range such as "A1:B3 D5" (openpyxl MultiCellRange) as rectangles. */
function parseRanges(ranges: string): CellRange[] {
  return ranges
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map((part) => {
      const [from, to = from] = part.replace(/\$/g, '').split(':');
      const a = parseCell(from);
      const b = parseCell(to);
      return { top: Math.min(a.row, b.row), bottom: Math.max(a.row, b.row), left: Math.min(a.col, b.col), right: Math.max(a.col, b.col) };
    });
}

function rangesWithin(inner: CellRange[], outer: CellRange[]): boolean {
  return inner.every((r) => outer.some((o) => o.top <= r.top && o.left <= r.left && r.bottom <= o.bottom && r.right <= o.right));
}

function parseCell(ref: string): { col: number; row: number } {
  const match = /^([A-Za-z]+)(\d+)$/.exec(ref);
  if (!match) throw new MetricOptionsError(`not a cell reference: "${ref}"`);
  let col = 0;
  for (const ch of match[1].toUpperCase()) col = col * 26 + (ch.charCodeAt(0) - 64);
  return { col, row: Number(match[2]) };
}
