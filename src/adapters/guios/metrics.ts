// GUI-OS variants of metrics whose OSWorld namesake behaves differently (src/benchmark/tasks/eval/table.py and
// general.py): compare_csv via pandas, compare_text_file, and compare_script_logs. Where OSWorld has the same name they
// register as the GUI-OS variant (`guiosVariants`), so the engine prefers them for GUI-OS tasks.
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import type { Metric, Options } from '../../eval/registry.ts';
import { filePath } from '../../eval/metrics/arguments.ts';
import { PYTHON_WHITESPACE_CLASS, compareCodePoints, pythonStrip } from '../../python/str.ts';
import { MalformedInputError } from '../../errors.ts';
import { MetricOptionsError } from '../../eval/errors.ts';

// ---------------------------------------------------------------------------------------------------------------
// A small pd.read_csv: the C parser's tokenising (quotes, blank lines) and its per-column dtype inference.

type Cell = bigint | number | boolean | string; // NaN (a number) stands for a missing value
type Dtype = 'int64' | 'float64' | 'bool' | 'object';

export interface Column {
  name: string;
  dtype: Dtype;
  values: Cell[];
}

// pandas' default na_values (STR_NA_VALUES).
const NA_VALUES = new Set([
  '', '#N/A', '#N/A N/A', '#NA', '-1.#IND', '-1.#QNAN', '-NaN', '-nan', '1.#IND', '1.#QNAN', '<NA>', 'N/A', 'NA', 'NULL',
  'NaN', 'None', 'n/a', 'nan', 'null',
]);
const TRUE_VALUES = new Set(['True', 'TRUE', 'true']);
const FALSE_VALUES = new Set(['False', 'FALSE', 'false']);
const INTEGER = /^[ \t]*[+-]?\d+[ \t]*$/;
const FLOAT = /^[ \t]*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[ \t]*$/;
const INFINITY = /^[ \t]*([+-]?)inf(inity)?[ \t]*$/i;
const INT64_MIN = -(2n ** 63n);
const UINT64_MAX = 2n ** 64n - 1n;

/** Splits CSV text into records: comma-separated, double-quoted fields, blank and whitespace-only lines skipped. */
function tokenizeCsv(text: string): string[][] {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  let inQuotes = false;
  let fieldStarted = false;
  const endRecord = () => {
    if (fieldStarted || record.length > 0) {
      record.push(field);
      const blank = record.length === 1 && !quoted && /^[ \t]*$/.test(record[0]);
      if (!blank) records.push(record);
    }
    record = [];
    field = '';
    quoted = false;
    fieldStarted = false;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inQuotes) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') inQuotes = false;
      else field += c;
      continue;
    }
    if (c === '"') {
      inQuotes = true;
      quoted = true;
      fieldStarted = true;
    } else if (c === ',') {
      record.push(field);
      field = '';
      quoted = false;
      fieldStarted = true;
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endRecord();
    } else {
      field += c;
      fieldStarted = true;
    }
  }
  if (inQuotes) throw new MalformedInputError('CSV ends inside a quoted field (pandas: EOF inside string)');
  endRecord();
  return records;
}

/** pd.read_csv(path) with default arguments: a header row, then columns with inferred dtypes. */
export function readCsvLikePandas(text: string, label = 'CSV'): Column[] {
  const records = tokenizeCsv(text);
  if (records.length === 0) throw new MalformedInputError(`${label}: no columns to parse from file (pandas EmptyDataError)`);
  const header = mangleNames(records[0].map((name, i) => (name === '' ? `Unnamed: ${i}` : name)));
  const rows = records.slice(1);
  rows.forEach((row, r) => {
    if (row.length > header.length) {
      throw new MalformedInputError(`${label}: expected ${header.length} fields in line ${r + 2}, saw ${row.length} (pandas ParserError)`);
    }
  });
  return header.map((name, c) => inferColumn(name, rows.map((row) => row[c] ?? '')));
}

/** pandas renames duplicate headers "a", "a" to "a", "a.1" (its _dedup_names loop). */
function mangleNames(names: string[]): string[] {
  const counts = new Map<string, number>();
  return names.map((original) => {
    let name = original;
    let count = counts.get(name) ?? 0;
    while (count > 0) {
      counts.set(name, count + 1);
      name = `${name}.${count}`;
      count = counts.get(name) ?? 0;
    }
    counts.set(name, count + 1);
    return name;
  });
}

function inferColumn(name: string, raw: string[]): Column {
  const missing = raw.map((v) => NA_VALUES.has(v));
  const present = raw.filter((_, i) => !missing[i]);
  const anyMissing = missing.some(Boolean);
  if (raw.length === 0) return { name, dtype: 'object', values: [] };
  if (present.length === 0) return { name, dtype: 'float64', values: raw.map(() => NaN) };
  if (present.every((v) => INTEGER.test(v))) {
    const ints = present.map((v) => BigInt(v.trim()));
    const fits = ints.every((v) => v >= INT64_MIN && v <= UINT64_MAX);
    if (fits && !anyMissing) return { name, dtype: 'int64', values: raw.map((v) => BigInt(v.trim())) };
    if (fits) return { name, dtype: 'float64', values: raw.map((v, i) => (missing[i] ? NaN : Number(v.trim()))) };
  }
  if (present.every((v) => FLOAT.test(v) || INFINITY.test(v))) {
    return { name, dtype: 'float64', values: raw.map((v, i) => (missing[i] ? NaN : parseFloatCell(v))) };
  }
  if (present.every((v) => TRUE_VALUES.has(v) || FALSE_VALUES.has(v))) {
    const values = raw.map((v, i) => (missing[i] ? NaN : TRUE_VALUES.has(v)));
    return { name, dtype: anyMissing ? 'object' : 'bool', values };
  }
  return { name, dtype: 'object', values: raw.map((v, i) => (missing[i] ? NaN : v)) };
}

function parseFloatCell(text: string): number {
  const inf = INFINITY.exec(text);
  if (inf) return inf[1] === '-' ? -Infinity : Infinity;
  return Number(text.trim());
}

// ---------------------------------------------------------------------------------------------------------------
// DataFrame operations compare_csv uses.

const isMissing = (v: Cell) => typeof v === 'number' && Number.isNaN(v);

/** Ordering of one column's values as sort_values sees it: missing last, otherwise by value. */
function compareCells(a: Cell, b: Cell): number {
  if (isMissing(a) || isMissing(b)) return Number(isMissing(a)) - Number(isMissing(b));
  if (typeof a === 'string' && typeof b === 'string') return compareCodePoints(a, b);
  if (typeof a === 'string' || typeof b === 'string') {
    throw new MalformedInputError(`cannot sort a column mixing ${typeof a} and ${typeof b} values (pandas TypeError)`);
  }
  const x = typeof a === 'bigint' ? a : typeof a === 'boolean' ? BigInt(a) : a;
  const y = typeof b === 'bigint' ? b : typeof b === 'boolean' ? BigInt(b) : b;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** df.sort_values(by=all columns).reset_index(drop=True). */
function sortRows(columns: Column[]): Column[] {
  const rowCount = columns[0]?.values.length ?? 0;
  const order = Array.from({ length: rowCount }, (_, i) => i);
  order.sort((i, j) => {
    for (const column of columns) {
      const d = compareCells(column.values[i], column.values[j]);
      if (d !== 0) return d;
    }
    return i - j;
  });
  return columns.map((column) => ({ ...column, values: order.map((i) => column.values[i]) }));
}

function mapStrings(columns: Column[], fn: (s: string) => string): Column[] {
  return columns.map((column) => ({ ...column, values: column.values.map((v) => (typeof v === 'string' ? fn(v) : v)) }));
}

/** DataFrame.equals: same column labels in order, same length, same dtype per column, equal values (NaN = NaN). */
function framesEqual(a: Column[], b: Column[]): boolean {
  if (a.length !== b.length) return false;
  return a.every((column, c) => {
    const other = b[c];
    if (column.name !== other.name || column.dtype !== other.dtype || column.values.length !== other.values.length) return false;
    return column.values.every((v, i) => {
      const w = other.values[i];
      return (isMissing(v) && isMissing(w)) || v === w;
    });
  });
}

const WHITESPACE_RUN = new RegExp(`[${PYTHON_WHITESPACE_CLASS}]+`, 'g');

/**
 * compare_csv (GUI-OS)(local_expected, vm_result, ignore_order=False, ignore_case=False, strict=True): both files read
 * with pd.read_csv, columns sorted by name; strict=False strips string cells, ignore_case lower-cases them,
 * ignore_order sorts the rows by all columns; then DataFrame.equals (dtype-sensitive: an int column never equals a
 * float column). A file pandas cannot read scores 0, as GUI-OS's try/except does.
 */
async function compareCsvGuios(result: unknown, expected: unknown, options: Options = {}): Promise<number> {
  const resultPath = filePath(result, 'compare_csv result (vm_result)');
  const expectedPath = filePath(expected, 'compare_csv expected (local_expected)');
  if (!resultPath || !expectedPath) return 0;
  let frames: Column[][];
  try {
    frames = [
      readCsvLikePandas(await readFile(resultPath, 'utf8'), resultPath),
      readCsvLikePandas(await readFile(expectedPath, 'utf8'), expectedPath),
    ];
  } catch {
    return 0;
  }
  frames = frames.map((columns) => [...columns].sort((x, y) => compareCodePoints(x.name, y.name)));
  if (options.strict === false) frames = frames.map((f) => mapStrings(f, (text) => pythonStrip(text)));
  if (options.ignore_case) frames = frames.map((f) => mapStrings(f, (s) => s.toLowerCase()));
  if (options.ignore_order) frames = frames.map(sortRows);
  return framesEqual(frames[0], frames[1]) ? 1 : 0;
}

/** Python's open(path).read(): universal newlines. */
async function readText(path: string): Promise<string> {
  return (await readFile(path, 'utf8')).replace(/\r\n?/g, '\n');
}

/**
 * compare_text_file (GUI-OS)(local_expected_file, vm_result_file, ignore_blanks=False, ignore_case=False): exact
 * equality after optional normalisation (tabs/newlines → spaces, strip, whitespace runs → one space; lower case).
 */
async function compareTextFileGuios(result: unknown, expected: unknown, options: Options = {}): Promise<number> {
  const resultPath = filePath(result, 'compare_text_file result (vm_result_file)');
  const expectedPath = filePath(expected, 'compare_text_file expected (local_expected_file)');
  if (!resultPath || !expectedPath) return 0;
  let actual = await readText(resultPath);
  let wanted = await readText(expectedPath);
  if (options.ignore_blanks) {
    const normalise = (t: string) => pythonStrip(t.replace(/[\t\n]/g, ' ')).replace(WHITESPACE_RUN, ' ');
    actual = normalise(actual);
    wanted = normalise(wanted);
  }
  if (options.ignore_case) {
    actual = actual.toLowerCase();
    wanted = wanted.toLowerCase();
  }
  return actual === wanted ? 1 : 0;
}

/**
 * compare_script_logs(eval_script, vm_eval_logs, rules={include, exclude}): check_include_exclude over the log
 * written by the task's eval script (the engine runs the script; `result` is the fetched log file or its text).
 * Every include must be a substring and no exclude may be; missing rules score 0. `rules` comes from the options (as
 * the engine passes GUI-OS's keyword), else from the positional `expected`.
 */
async function compareScriptLogs(result: unknown, expectedRules: unknown, options: Options = {}): Promise<number> {
  if (result === null || result === undefined) return 0;
  if (typeof result !== 'string') throw new MalformedInputError(`compare_script_logs: result must be the log text or its path, got ${JSON.stringify(result)}`);
  const rules = options.rules ?? expectedRules;
  if (!rules || typeof rules !== 'object' || Array.isArray(rules)) return 0;
  const log = !result.includes('\n') && existsSync(result) ? await readText(result) : result;
  const include = ((rules as Options).include ?? []) as unknown[];
  const exclude = ((rules as Options).exclude ?? []) as unknown[];
  const inLog = (needle: unknown) => {
    if (typeof needle !== 'string') throw new MetricOptionsError(`compare_script_logs: rules entries must be strings, got ${JSON.stringify(needle)}`);
    return log.includes(needle);
  };
  return include.every(inLog) && !exclude.some(inLog) ? 1 : 0;
}

export const guiosMetrics: Record<string, Metric> = {
  compare_script_logs: compareScriptLogs,
};

/** GUI-OS's own versions of OSWorld metric names, registered with `{ format: 'guios' }`. */
export const guiosVariants: Record<string, Metric> = {
  compare_csv: compareCsvGuios,
  compare_text_file: compareTextFileGuios,
};
