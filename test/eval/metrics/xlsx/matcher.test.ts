// toMatchXlsx on LibreOffice-written workbooks: passes on equal books, and the failure message names the rule, the
// sheet and the cell with both values.
import { describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import '../../../../src/matchers/index.ts';
import { matchXlsx } from '../../../../src/matchers/xlsx.ts';

const F = (name: string) => join(import.meta.dirname, '../../../../fixtures/xlsx', `${name}.xlsx`);

describe('toMatchXlsx', () => {
  test('equal workbooks match (by default, the values of every sheet, in order)', async () => {
    await expect(F('data-base')).toMatchXlsx(F('data-base'));
    await expect(F('data-value')).not.toMatchXlsx(F('data-base'));
  });

  test('by default a renamed sheet with the same values matches; the sheet_name rule checks names when asked', async () => {
    await expect(F('data-renamed')).toMatchXlsx(F('data-base'));
    await expect(expect(F('data-renamed')).toMatchXlsx(F('data-base'), { rules: [{ type: 'sheet_name' }] })).rejects.toThrow(/rule #0 sheet_name failed/);
  });

  test('the workbook as a Buffer of its bytes', async () => {
    await expect(readFileSync(F('data-base'))).toMatchXlsx(F('data-base'));
    await expect(expect(readFileSync(F('data-value'))).toMatchXlsx(F('data-base'))).rejects.toThrow(/received: 8/);
  });

  test('the message points at the sheet and cell with both values', async () => {
    const verdict = await matchXlsx(F('data-value'), F('data-base'));
    expect(verdict.pass).toBe(false);
    expect(verdict.message).toBe(
      'rule #0 sheet_data failed: value differs\n  at result:Sales vs expected:Sales B3\n  received: 8\n  expected: 7',
    );
    await expect(expect(F('data-value')).toMatchXlsx(F('data-base'))).rejects.toThrow(/at result:Sales vs expected:Sales B3\n {2}received: 8\n {2}expected: 7/);
  });

  test('custom rules: a style difference', async () => {
    await expect(expect(F('style-fill')).toMatchXlsx(F('style-base'), { rules: [{ type: 'style', sheet_idx0: 0, sheet_idx1: 'EI0', props: ['bgcolor'] }] }))
      .rejects.toThrow(/rule #0 style failed: style bgcolor differs\n {2}at result:Sheet1 vs expected:Sheet1 C2\n {2}received: "FF00B0F0"\n {2}expected: "FFFFFF00"/);
  });

  test('custom rules: a frozen pane against none (LibreOffice froze view-frozen at B2)', async () => {
    const freeze = { rules: [{ type: 'freeze', sheet_idx0: 0, sheet_idx1: 'EI0' }] };
    await expect(F('view-frozen')).toMatchXlsx(F('view-frozen-scrolled'), freeze);
    const verdict = await matchXlsx(F('view-frozen'), F('view-base'), freeze);
    expect(verdict.message).toBe(
      'rule #0 freeze failed: freeze panes differ ([state, xSplit, ySplit])\n  at result:Sheet1 vs expected:Sheet1\n  received: ["frozen",1,1]\n  expected: ["none"]',
    );
    await expect(expect(F('view-frozen')).toMatchXlsx(F('view-base'), freeze)).rejects.toThrow(/rule #0 freeze failed: .*\n {2}at result:Sheet1 vs expected:Sheet1\n {2}received: \["frozen",1,1\]\n {2}expected: \["none"\]/);
  });

  test('an unreadable result', async () => {
    const verdict = await matchXlsx('/nonexistent.xlsx', F('data-base'));
    expect(verdict.message).toMatch(/rule load failed: the result "\/nonexistent.xlsx" is missing/);
  });
});
