// Tabular and database results (OSWorld general.py, table.py's compare_csv): CSV records, CSV line equality, a SQL
// query's first cell, a timestamp in a speedtest CSV.
import { readFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import type { Metric, Options } from '../registry.ts';
import { matchRecord } from './rule-match.ts';
import { rulesOf } from './arguments.ts';
import { decodePythonText, readPythonText } from '../../python/io.ts';
import { pythonSplitlines, pythonStrip } from '../../python/str.ts';
import { parsePythonCsv, pythonFloat } from '../../python/parse.ts';
import { MetricOptionsError } from '../errors.ts';
import { MalformedInputError } from '../../errors.ts';

/** `csv.DictReader`: the first row names the fields; blank rows are skipped; extra values go under key null. */
function dictRecords(text: string): Record<string, string | null>[] {
  const rows = parsePythonCsv(text);
  let header: string[] | undefined;
  const records: Record<string, string | null>[] = [];
  for (const row of rows) {
    if (row.length === 0) continue;
    if (!header) {
      header = row;
      continue;
    }
    const record: Record<string, string | null> = {};
    header.forEach((name, i) => {
      record[name] = i < row.length ? row[i] : null;
    });
    records.push(record);
  }
  return records;
}

/** Each `expect` record pattern matches some CSV record, and no record matches an `unexpect` pattern. */
export function checkCsv(result: unknown, expected: unknown): number {
  if (result === null || result === undefined) return 0;
  const rules = rulesOf(expected, 'check_csv');
  const expect = (rules.expect ?? []) as Record<string, unknown>[];
  const unexpect = (rules.unexpect ?? []) as Record<string, unknown>[];
  const found = expect.map(() => false);
  let clean = true;
  for (const record of dictRecords(readPythonText(String(result)))) {
    expect.forEach((pattern, i) => {
      found[i] ||= matchRecord(pattern, record);
    });
    clean &&= !unexpect.some((pattern) => matchRecord(pattern, record));
  }
  return found.every(Boolean) && clean ? 1 : 0;
}

/**
 * OSWorld's `_safe_read_file`: UTF-8 first (a BOM stays as U+FEFF), then Latin-1, which decodes any bytes; lines as
 * `str.splitlines()`.
 */
function safeReadLines(path: string): string[] {
  const bytes = readFileSync(path);
  let text: string;
  try {
    text = decodePythonText(bytes);
  } catch {
    text = Buffer.from(bytes).toString('latin1').replace(/\r\n?/g, '\n');
  }
  return pythonSplitlines(text);
}

/**
 * compare_csv (OSWorld): the result's lines equal the expected file's lines; `strict=false` strips each line,
 * `ignore_case` lower-cases. `expected` may be a list of gold files: any match scores 1. A gold file that cannot be
 * read is skipped; an unreadable result scores 0.
 */
export function compareCsv(result: unknown, expected: unknown, options: Options = {}): number {
  if (result === null || result === undefined) return 0;
  let resultLines: string[];
  try {
    resultLines = safeReadLines(String(result));
  } catch {
    return 0;
  }
  const normalize = (lines: string[]) => {
    let out = lines;
    if (!(options.strict ?? true)) out = out.map((line) => pythonStrip(line));
    if (options.ignore_case) out = out.map((l) => l.toLowerCase());
    return out;
  };
  const golds = typeof expected === 'string' ? [expected] : ((expected ?? []) as unknown[]);
  for (const gold of golds) {
    let goldLines: string[];
    try {
      goldLines = safeReadLines(String(gold));
    } catch {
      continue;
    }
    const a = normalize(resultLines);
    const b = normalize(goldLines);
    if (a.length === b.length && a.every((line, i) => line === b[i])) return 1;
  }
  return 0;
}

/**
 * `float(cursor.execute(sql).fetchone()[0] or 0)`: the first cell of the first row as a float, so a count or a
 * boolean expression becomes the score. No row raises, as in Python.
 */
export function runSqlite3(result: unknown, expected: unknown): number {
  const sql = rulesOf(expected, 'run_sqlite3').sql;
  if (typeof sql !== 'string') throw new MetricOptionsError('run_sqlite3: rules.sql must be a string');
  if (result === null || result === undefined) throw new MalformedInputError('run_sqlite3: no database file (result is null)');
  const db = new DatabaseSync(String(result), { readOnly: true });
  try {
    const statement = db.prepare(sql);
    statement.setReturnArrays(true);
    const row = statement.get() as unknown[] | undefined;
    if (!row) throw new MalformedInputError(`run_sqlite3: the query returned no row: ${sql}`);
    const cell = row[0];
    if (cell === null || cell === undefined || cell === 0 || cell === '' || cell === 0n) return 0;
    if (typeof cell === 'number') return cell;
    if (typeof cell === 'bigint') return Number(cell);
    const text = cell instanceof Uint8Array ? new TextDecoder().decode(cell) : String(cell);
    const value = pythonFloat(text);
    if (value === undefined) throw new MalformedInputError(`run_sqlite3: could not convert ${JSON.stringify(text)} to float`);
    return value;
  } finally {
    db.close();
  }
}

/**
 * compare_time_in_speedtest_results(csv, time_diff): the second line's second field ends in `HH:MM`; it must be less
 * than `time_diff` minutes from the host's clock (no wrap at midnight, as in OSWorld). Any error scores 0.
 */
export function compareTimeInSpeedtestResults(result: unknown, expected: unknown, _options: Options = {}, now: Date = new Date()): number {
  if (!result) return 0;
  try {
    const lines = readPythonText(String(result)).split('\n');
    if (lines.length < 2 || (lines.length === 2 && lines[1] === '')) return 0;
    const fields = lines[1].split(',');
    if (fields.length < 2) return 0;
    const hhmm = fields[1].slice(-5);
    const match = /^(\d{1,2}):(\d{1,2})$/.exec(hhmm);
    if (!match || Number(match[1]) > 23 || Number(match[2]) > 59) return 0;
    const minutes = Number(match[1]) * 60 + Number(match[2]);
    const nowMinutes = now.getHours() * 60 + now.getMinutes();
    // Python's int(): an int, or a string of digits.
    const limit = typeof expected === 'number' ? Math.trunc(expected) : /^\s*[+-]?\d+\s*$/.test(String(expected)) ? Number(expected) : Number.NaN;
    if (Number.isNaN(limit)) return 0;
    return Math.abs(minutes - nowMinutes) < limit ? 1 : 0;
  } catch {
    return 0;
  }
}

export const dataMetrics: Record<string, Metric> = {
  check_csv: checkCsv,
  compare_csv: compareCsv,
  run_sqlite3: runSqlite3,
  compare_time_in_speedtest_results: (result, expected, options) => compareTimeInSpeedtestResults(result, expected, options),
};
