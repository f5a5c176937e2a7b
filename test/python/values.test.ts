// Python's printing and pandas/numpy rounding, checked against values Python itself prints (by hand).
import { describe, expect, test } from 'vitest';
import { pythonFloatRepr, pythonStr } from '../../src/python/repr.ts';
import { pythonSplitlines, pythonStrip } from '../../src/python/str.ts';
import { pyStr, py } from '../../src/python/values.ts';
import { numpyRound, inferColumn } from '../../src/eval/formats/xlsx/sheet-data.ts';
import { fromExcel } from '../../src/eval/formats/xlsx/cell-values.ts';

describe('python values', () => {
  test('repr(float)', () => {
    // python3 -c "print([repr(x) for x in (5.0, 0.1, 1e-05, 0.0001, 1e16, 1.5e16, 123456789012345.6, -2.5, 1e22)])"
    expect([5.0, 0.1, 1e-5, 0.0001, 1e16, 1.5e16, 123456789012345.6, -2.5, 1e22].map(pythonFloatRepr)).toEqual([
      '5.0', '0.1', '1e-05', '0.0001', '1e+16', '1.5e+16', '123456789012345.6', '-2.5', '1e+22',
    ]);
  });
  test('str() of openpyxl date values', () => {
    expect(pyStr(fromExcel(45292.5, 'date'))).toBe('2024-01-01 12:00:00');
    expect(pyStr(fromExcel(0.75, 'date'))).toBe('18:00:00');
    expect(pyStr(fromExcel(1.5, 'timedelta'))).toBe('1 day, 12:00:00');
  });
  test('strip and splitlines as Python', () => {
    expect(pythonStrip('\x1c a \u00a0')).toBe('a');
    expect(pythonSplitlines('a\r\nb\rc\n\n')).toEqual(['a', 'b', 'c', '']);
  });
  test('numpy round: halves to even after scaling', () => {
    // numpy: np.round([0.125, 0.375, 2.5, -2.5, 1.00005], 2 / 2 / 0 / 0 / 4) → 0.12, 0.38, 2.0, -2.0, 1.0
    expect(numpyRound(0.125, 2)).toBe(0.12);
    expect(numpyRound(0.375, 2)).toBe(0.38);
    expect(numpyRound(2.5, 0)).toBe(2);
    expect(numpyRound(-2.5, 0)).toBe(-2);
    expect(numpyRound(1234.5, -1)).toBe(1230);
  });
  test('pandas dtype inference', () => {
    expect(inferColumn([py.int(1), py.int(2)]).dtype).toBe('int64');
    expect(inferColumn([py.int(1), py.str('')]).dtype).toBe('float64');
    expect(inferColumn([py.int(1), py.str('2.5')]).dtype).toBe('float64');
    expect(inferColumn([py.bool(true), py.bool(false)]).dtype).toBe('bool');
    expect(inferColumn([py.str('TRUE'), py.str('false')]).dtype).toBe('bool');
    expect(inferColumn([py.str('a'), py.int(1)]).dtype).toBe('object');
    expect(inferColumn([{ t: 'datetime', ms: 0 }, py.str('')]).dtype).toBe('datetime64');
  });
});

test('pythonStr of a list of str is its repr: quotes chosen as Python chooses them, control characters escaped (the control server shows launched commands so)', () => {
  // Expected: python3 -c "print(repr(['xdg-open', \"it's\", 'say \"hi\"', 'both \' and \"', 'back\\\\slash', 'tab\there\nnl', 'bell\x07', 'café']))"
  const items = ['xdg-open', "it's", 'say "hi"', `both ' and "`, 'back\\slash', 'tab\there\nnl', 'bell\x07', 'café'];
  expect(pythonStr(items)).toBe(`['xdg-open', "it's", 'say "hi"', 'both \\' and "', 'back\\\\slash', 'tab\\there\\nnl', 'bell\\x07', 'café']`);
  expect(pythonStr([])).toBe('[]');
});
