import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { checkCsv, compareCsv, compareTimeInSpeedtestResults, runSqlite3 } from '../../../src/eval/metrics/data.ts';
import { parsePythonCsv } from '../../../src/python/parse.ts';

const f = (name: string) => join(import.meta.dirname, '../../../fixtures/text', name);

describe('csv parsing as Python csv.reader', () => {
  test('quotes, doubled quotes, text after a closing quote, quotes inside unquoted fields, blank rows', () => {
    expect(parsePythonCsv('a,"b ""c""",d\n"x"y,z"w\n\n,\n')).toEqual([['a', 'b "c"', 'd'], ['xy', 'z"w'], [], ['', '']]);
  });
});

describe('check_csv', () => {
  test('unexpect record present → 0 (corpus task dfac9ee8)', () => {
    expect(checkCsv(f('accounts.csv'), { unexpect: [{ url: 'imap://outlook.office365.com', user: 'anonym-x2024@outlook.com' }] })).toBe(0);
  });
  test('expect records matched on subsets of fields, quoted values unescaped', () => {
    expect(checkCsv(f('accounts.csv'), { expect: [{ user: 'a "quoted" user', port: '465' }, { url: 'imap://other.example.org' }] })).toBe(1);
    expect(checkCsv(f('accounts.csv'), { expect: [{ user: 'nobody' }] })).toBe(0);
  });
  test('values are strings: 993 does not equal "993"', () => {
    expect(checkCsv(f('accounts.csv'), { expect: [{ port: 993 }] })).toBe(0);
  });
});

describe('compare_csv (OSWorld)', () => {
  test('identical lines, and any of several gold files', () => {
    expect(compareCsv(f('table.csv'), f('table.csv'), {})).toBe(1);
    expect(compareCsv(f('table.csv'), [f('table-other.csv'), f('missing.csv'), f('table.csv')], {})).toBe(1);
    expect(compareCsv(f('table.csv'), [f('table-other.csv')], {})).toBe(0);
  });
  test('strict=false strips lines, ignore_case lower-cases', () => {
    expect(compareCsv(f('table-spaces.csv'), f('table.csv'), {})).toBe(0);
    expect(compareCsv(f('table-spaces.csv'), f('table.csv'), { strict: false })).toBe(0);
    expect(compareCsv(f('table-spaces.csv'), f('table.csv'), { strict: false, ignore_case: true })).toBe(1);
  });
  test('a Latin-1 file is read after UTF-8 fails; a missing result scores 0', () => {
    expect(compareCsv(f('latin1.csv'), f('latin1.csv'), {})).toBe(1);
    expect(compareCsv(null, f('table.csv'), {})).toBe(0);
    expect(compareCsv(f('missing.csv'), f('table.csv'), {})).toBe(0);
  });
});

describe('run_sqlite3', () => {
  const sql = 'SELECT COALESCE((SELECT COUNT(*) FROM messageAttributes WHERE attributeID = 58 AND value = 1 AND messageID IN (SELECT id FROM messages WHERE folderID = 13)), 0) = (SELECT COUNT(*) FROM messages WHERE folderID = 13);';
  test('the corpus query (task dd84e895) returns 1 when every message of folder 13 is flagged', () => {
    expect(runSqlite3(f('messages.sqlite'), { sql })).toBe(1);
    expect(runSqlite3(f('messages.sqlite'), { sql: sql.replaceAll('13', '7') })).toBe(0);
  });
  test('the first cell is returned as a float, NULL as 0', () => {
    expect(runSqlite3(f('messages.sqlite'), { sql: 'SELECT r FROM ratios' })).toBe(0.25);
    expect(runSqlite3(f('messages.sqlite'), { sql: 'SELECT NULL' })).toBe(0);
  });
  test('no row raises as in Python', () => {
    expect(() => runSqlite3(f('messages.sqlite'), { sql: 'SELECT id FROM messages WHERE id > 99' })).toThrow(/no row/);
  });
});

describe('compare_time_in_speedtest_results', () => {
  test('the HH:MM on line 2 is within time_diff minutes of now (host clock)', () => {
    expect(compareTimeInSpeedtestResults(f('speedtest.csv'), 5, {}, new Date(2024, 2, 1, 10, 33))).toBe(1);
    expect(compareTimeInSpeedtestResults(f('speedtest.csv'), '5', {}, new Date(2024, 2, 1, 10, 36))).toBe(0);
  });
  test('missing file or bad time_diff scores 0', () => {
    expect(compareTimeInSpeedtestResults(f('missing.csv'), 5, {}, new Date())).toBe(0);
    expect(compareTimeInSpeedtestResults(f('speedtest.csv'), '5.0', {}, new Date(2024, 2, 1, 10, 30))).toBe(0);
  });
});
