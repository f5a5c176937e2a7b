// toMatchXlsx on LibreOffice-written workbooks: passes on equal books, and the failure message names the rule, the
// sheet and the cell with both values.
import { describe, expect, test } from 'vitest';
import { join } from 'node:path';
import '../../../../src/matchers/index.ts';
import { matchXlsx } from '../../../../src/matchers/xlsx.ts';

const F = (name: string) => join(import.meta.dirname, '../../../../fixtures/xlsx', `${name}.xlsx`);

describe('toMatchXlsx', () => {
  test('equal workbooks match (sheet names and sheet_data of every sheet)', async () => {
    await expect(F('data-base')).toMatchXlsx(F('data-base'));
    await expect(F('data-value')).not.toMatchXlsx(F('data-base'));
  });

  test('the message points at the sheet and cell with both values', async () => {
    const verdict = await matchXlsx(F('data-value'), F('data-base'));
    expect(verdict.pass).toBe(false);
    expect(verdict.message).toBe(
      'rule #1 sheet_data failed: value differs\n  at result:Sales vs expected:Sales B3\n  received: 8\n  expected: 7',
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
