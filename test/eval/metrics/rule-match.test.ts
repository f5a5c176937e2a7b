import { describe, expect, test } from 'vitest';
import { matchValueToRule } from '../../../src/eval/metrics/rule-match.ts';
import { pythonEquals } from '../../../src/python/equality.ts';

describe("OSWorld's _match_value_to_rule", () => {
  test('re with Python flags and named groups', () => {
    expect(matchValueToRule('Total: 42', { method: 're', ref: '\\d+' })).toBe(true);
    expect(matchValueToRule('ABC', { method: 're.I', ref: '^abc$' })).toBe(true);
    expect(matchValueToRule('ABC', { method: 're', ref: '^abc$' })).toBe(false);
    expect(matchValueToRule('2024-05', { method: 're', ref: '(?P<year>\\d{4})-(?P=year)?' })).toBe(true);
    expect(matchValueToRule(42, { method: 're', ref: '42' })).toBe(false); // re.search on a non-string raises in Python
    expect(matchValueToRule('Hello', { method: 're', ref: '(?i)^hello$' })).toBe(true); // Python's inline flags
    expect(matchValueToRule('Hello', { method: 're', ref: '(?m)^hello$' })).toBe(false);
  });

  test('comparisons use Python equality (1 == 1.0 == True)', () => {
    expect(matchValueToRule(1, { method: 'eq', ref: 1.0 })).toBe(true);
    expect(matchValueToRule(true, { method: 'eq', ref: 1 })).toBe(true);
    expect(matchValueToRule(3, { method: 'lt', ref: 4 })).toBe(true);
    expect(matchValueToRule(4, { method: 'ge', ref: 5 })).toBe(false);
    expect(matchValueToRule('b', { method: 'gt', ref: 'a' })).toBe(true);
    expect(pythonEquals({ a: [1, 2] }, { a: [1, 2.0] })).toBe(true);
  });

  test('approx:T and range.XY bounds', () => {
    expect(matchValueToRule('10.04', { method: 'approx:0.05', ref: 10 })).toBe(true);
    expect(matchValueToRule('10.06', { method: 'approx:0.05', ref: 10 })).toBe(false);
    expect(matchValueToRule(5, { method: 'range.te', ref: [1, 5] })).toBe(true); // 1 < v <= 5
    expect(matchValueToRule(5, { method: 'range.tt', ref: [1, 5] })).toBe(false);
    expect(matchValueToRule(1, { method: 'range.et', ref: [1, 5] })).toBe(true);
  });

  test('spreadsheet_range: rectangle containment, whole columns included (corpus data_validation rule)', () => {
    const rule = { method: 'spreadsheet_range', ref: ['D2:D200', 'D2:D1048576'] };
    expect(matchValueToRule('D2:D1048576', rule)).toBe(true);
    expect(matchValueToRule('D2:D20', rule)).toBe(false); // does not cover the required subset
    expect(matchValueToRule('C2:D1048576', rule)).toBe(false); // exceeds the allowed superset
    expect(matchValueToRule('A1:B2 D4', { method: 'spreadsheet_range', ref: ['D4', 'A1:D10'] })).toBe(true);
  });

  test('str_list_eq and str_set_eq strip quotes and split on commas', () => {
    expect(matchValueToRule('"Pass,Fail,Held"', { method: 'str_list_eq', ref: ['Pass', 'Fail', 'Held'] })).toBe(true);
    expect(matchValueToRule('"Fail,Pass,Held"', { method: 'str_list_eq', ref: ['Pass', 'Fail', 'Held'] })).toBe(false);
    expect(matchValueToRule('"Fail,Pass,Held"', { method: 'str_set_eq', ref: ['Pass', 'Fail', 'Held'] })).toBe(true);
  });

  test('an unknown method is an error naming the accepted ones', () => {
    expect(() => matchValueToRule(1, { method: 'almost', ref: 1 })).toThrow(/unknown rule method "almost"/);
  });
});
