// compare_table on workbooks written by LibreOffice (scripts/fixtures/xlsx_fixtures.py): each rule type passes on
// equal files and fails on a pair with one known difference, with the difference reported.
import { describe, expect, test } from 'vitest';
import { join } from 'node:path';
import { compareTable, compareTableDetailed, compareConferenceCityInOrder, xlsxMetrics } from '../../../../src/eval/metrics/xlsx/index.ts';
import { xlsxLastRow } from '../../../../src/eval/formats/xlsx/sheet-data.ts';
import { normalizeCity } from '../../../../src/eval/metrics/xlsx/conference-city.ts';

const F = (name: string) => join(import.meta.dirname, '../../../../fixtures/xlsx', `${name}.xlsx`);
const run = (result: string, expected: string, rules: unknown[]) => compareTableDetailed(F(result), F(expected), { rules });

describe('compare_table: loading and sheet references', () => {
  test('a missing or unreadable result scores 0', async () => {
    expect(await compareTable('/nonexistent.xlsx', F('data-base'), { rules: [{ type: 'sheet_name' }] })).toBe(0);
    expect(await compareTable(join(import.meta.dirname, 'compare-table.test.ts'), F('data-base'), { rules: [{ type: 'sheet_name' }] })).toBe(0);
    expect(await compareTable(null, F('data-base'), { rules: [{ type: 'sheet_name' }] })).toBe(0);
  });

  test('is registered under its OSWorld name', () => {
    expect(xlsxMetrics.compare_table).toBe(compareTable);
  });

  test('sheets by index and by name (RI/RN/EI/EN) are the same sheet', async () => {
    for (const [a, b] of [[0, 'EI0'], ['RI0', 'ENSales'], ['RNSales', 'EI0'], [1, 'ENSummary']]) {
      expect((await run('data-base', 'data-base', [{ type: 'sheet_data', sheet_idx0: a, sheet_idx1: b }])).score).toBe(1);
    }
    // Sales against Summary differs
    expect((await run('data-base', 'data-base', [{ type: 'sheet_data', sheet_idx0: 'RI0', sheet_idx1: 'EI1' }])).score).toBe(0);
  });

  test('an unknown rule type is an error', async () => {
    await expect(run('data-base', 'data-base', [{ type: 'no_such_rule' }])).rejects.toThrow(/unimplemented sheet check "no_such_rule"/);
  });
});

describe('sheet_name', () => {
  test('passes on equal sheet lists, fails on a renamed sheet', async () => {
    expect((await run('data-base', 'data-base', [{ type: 'sheet_name' }])).score).toBe(1);
    const out = await run('data-renamed', 'data-base', [{ type: 'sheet_name' }]);
    expect(out.score).toBe(0);
    expect(out.failure).toMatchObject({ rule: 'sheet_name', actual: '["Sales","Totals"]', expected: '["Sales","Summary"]' });
  });
});

describe('sheet_data (pandas read_excel semantics)', () => {
  const rule = (extra = {}) => [{ type: 'sheet_data', sheet_idx0: 0, sheet_idx1: 'EI0', ...extra }];

  test('equal sheets pass; formula results (cached values) compare too, and row 1 is the header', async () => {
    expect((await run('data-base', 'data-base', rule())).score).toBe(1);
    // Summary!B1 is =SUM(Sales.B2:B5): 33 vs 32, and pandas reads it as a column label.
    expect((await run('data-value', 'data-base', [{ type: 'sheet_data', sheet_idx0: 1, sheet_idx1: 'EI1' }])).failure).toMatchObject({ cell: 'B1', actual: '33', expected: '32', detail: 'column label differs' });
  });

  test('a changed value fails at its cell', async () => {
    const out = await run('data-value', 'data-base', rule());
    expect(out.failure).toMatchObject({ rule: 'sheet_data', sheet: 'result:Sales vs expected:Sales', cell: 'B3', actual: '8', expected: '7' });
  });

  test('values are rounded to precision (default 4) before comparing', async () => {
    expect((await run('data-precision', 'data-base', rule())).score).toBe(1); // 1.12501 vs 1.125
    expect((await run('data-precision', 'data-base', rule({ precision: 6 }))).failure).toMatchObject({ cell: 'C4', actual: '1.12501', expected: '1.125' });
  });

  test('an empty cell is NaN and makes an int column float64', async () => {
    expect((await run('data-empty', 'data-base', rule())).failure).toMatchObject({ cell: 'B5', actual: 'NaN (empty)', expected: '3' });
  });

  test('numeric text is converted as pandas converts it', async () => {
    expect((await run('data-text-number', 'data-base', rule())).score).toBe(1);
  });
});

describe('sheet_print (CSV exports next to the workbooks)', () => {
  const rule = (extra = {}) => [{ type: 'sheet_print', sheet_idx0: 'RNSales', sheet_idx1: 'ENSales', ...extra }];
  test('passes on equal prints, fails on a case change unless ignore_case', async () => {
    expect((await run('data-base', 'data-base', rule())).score).toBe(1);
    expect((await run('data-case', 'data-base', rule())).failure).toMatchObject({ cell: 'line 4', actual: '"east,12,1.125,ok"', expected: '"East,12,1.125,ok"' });
    expect((await run('data-case', 'data-base', rule({ ignore_case: true }))).score).toBe(1);
  });
  test('a sheet without a CSV export fails', async () => {
    expect((await run('data-base', 'data-base', [{ type: 'sheet_print', sheet_idx0: 'RNNope', sheet_idx1: 'ENSales' }])).score).toBe(0);
  });
});

describe('sheet_fuzzy', () => {
  const rules = [
    { range: ['A1:A3'], type: 'exact_match', ignore_case: true, trim_trailings: ' ' },
    { range: ['B1:B3'], type: 'fuzzy_match', threshold: 85, normalization: [['Rd', 'Road'], ['St', 'Street']], ignore_case: true },
    { range: ['C2:C3'], type: 'includes', trim_leadings: '+ ', ignore_chars: ' ()-' },
  ];
  const rule = (r: unknown[]) => [{ type: 'sheet_fuzzy', sheet_idx0: 'RNSheet1', sheet_idx1: 'ENSheet1', rules: r }];
  test('normalised, trimmed, case-folded cells match', async () => {
    expect((await run('fuzzy-variant', 'fuzzy-base', rule(rules))).score).toBe(1);
  });
  test('exact_match without the normalisation fails at the first differing cell', async () => {
    const out = await run('fuzzy-variant', 'fuzzy-base', rule([{ range: 'A1:C3', type: 'exact_match' }]));
    expect(out.failure).toMatchObject({ rule: 'sheet_fuzzy', cell: 'A2', actual: '"ann lee "', expected: '"Ann Lee"' });
  });
  test('included_by and a fuzzy threshold', async () => {
    // "12 Main Rd" vs "12 Main Road": ratio 2·10/22 = 90.9…
    expect((await run('fuzzy-variant', 'fuzzy-base', rule([{ range: 'B2', type: 'fuzzy_match', threshold: 90 }]))).score).toBe(1);
    expect((await run('fuzzy-variant', 'fuzzy-base', rule([{ range: 'B2', type: 'fuzzy_match', threshold: 91 }]))).score).toBe(0);
    expect((await run('fuzzy-base', 'fuzzy-variant', rule([{ range: 'B2', type: 'included_by' }]))).score).toBe(0);
    expect((await run('fuzzy-variant', 'fuzzy-base', rule([{ range: 'B3', type: 'included_by' }]))).score).toBe(0);
    expect((await run('fuzzy-base', 'fuzzy-variant', rule([{ range: 'C3', type: 'included_by', ignore_chars: '-' }]))).score).toBe(1);
  });
});

describe('check_cell', () => {
  const rule = (coordinate: string, props: unknown) => [{ type: 'check_cell', sheet_idx: 0, coordinate, props }];
  test('value through the rule matcher (numbers read as float)', async () => {
    expect((await run('data-base', 'data-base', rule('C3', { value: { method: 'approx:0.001', ref: 3.25 } }))).score).toBe(1);
    expect((await run('data-base', 'data-base', rule('A2', { value: { method: 'eq', ref: 'North' } }))).score).toBe(1);
    expect((await run('data-base', 'data-base', rule('A2', { value: { method: 're', ref: '^No' } }))).score).toBe(1);
    const out = await run('data-value', 'data-base', rule('B3', { value: { method: 'eq', ref: 7 } }));
    expect(out.failure).toMatchObject({ cell: 'B3', actual: '8', expected: 'eq 7' });
    expect((await run('data-base', 'data-base', [{ type: 'check_cell', sheet_idx: 'RNSummary', coordinate: 'B1', props: { value: { method: 'gt', ref: 31 } } }])).score).toBe(1);
  });
  test('style properties: bold, merge, fill colour', async () => {
    expect((await run('style-base', 'style-base', rule('B2', { font_bold: { method: 'eq', ref: true } }))).score).toBe(1);
    expect((await run('style-bold', 'style-base', rule('B2', { font_bold: { method: 'eq', ref: true } }))).failure).toMatchObject({ actual: 'None' });
    expect((await run('style-base', 'style-base', rule('B5', { merge: { method: 'eq', ref: true } }))).score).toBe(1);
    expect((await run('style-merge', 'style-base', rule('B5', { merge: { method: 'eq', ref: true } }))).score).toBe(0);
    expect((await run('style-base', 'style-base', rule('C2', { bgcolor: { method: 'eq', ref: 'FFFFFF00' } }))).score).toBe(1);
    expect((await run('style-fill', 'style-base', rule('C2', { bgcolor: { method: 'eq', ref: 'FFFFFF00' } }))).score).toBe(0);
  });
});

describe('style (with conditional formats)', () => {
  const rule = (props: string[]) => [{ type: 'style', sheet_idx0: 0, sheet_idx1: 'EI0', props }];
  test('fill colour and merges are compared cell by cell', async () => {
    expect((await run('style-base', 'style-base', rule(['bgcolor', 'merge', 'font_name', 'font_color', 'fill_type', 'hyperlink', 'font_size']))).score).toBe(1);
    expect((await run('style-fill', 'style-base', rule(['bgcolor']))).failure).toMatchObject({ cell: 'C2', actual: '"FF00B0F0"', expected: '"FFFFFF00"', detail: 'style bgcolor differs' });
    expect((await run('style-merge', 'style-base', rule(['merge']))).failure).toMatchObject({ cell: 'B5', actual: 'false', expected: 'true' });
  });
  test('cells where a conditional format is active take its dxf style', async () => {
    // B2 (91 > 80) is red through the "Bad" style in one file, green through "Good" in the other.
    expect((await run('style-cf', 'style-base', rule(['font_color']))).failure).toMatchObject({ cell: 'B2', actual: '"FF006600"', expected: '"FFCC0000"' });
    // B2's own bold is hidden by the active format's dxf, as in OSWorld (check_cell still sees it, above).
    expect((await run('style-bold', 'style-base', rule(['font_bold']))).score).toBe(1);
  });
  test('number_format: a dxf without a number format raises, as openpyxl does', async () => {
    await expect(run('style-number-format', 'style-base', rule(['number_format']))).rejects.toThrow(/formatCode/);
  });
});

// Panes and zoom come from a GUI LibreOffice (scripts/fixtures/xlsx_views.py): view-base's workbook frozen at B2
// (view-frozen), the same freeze scrolled to B10 (view-frozen-scrolled), row 1 only frozen (view-frozen-row), a split
// that is not frozen (view-split), and zoom 150 (view-zoom). view-base has no pane and zoomScale 100.
describe('freeze', () => {
  const freeze = [{ type: 'freeze', sheet_idx0: 0, sheet_idx1: 'EI0' }];

  test('no pane on either side, or the same frozen pane, passes', async () => {
    expect((await run('view-base', 'view-base', freeze)).score).toBe(1);
    expect((await run('view-frozen', 'view-frozen', freeze)).score).toBe(1);
  });

  test('the scroll position of a frozen pane does not matter (topLeftCell B10 vs B2)', async () => {
    // openpyxl's freeze_panes (the pane's topLeftCell) differs, "B10" vs "B2"; the snapshot compares (state, xSplit, ySplit).
    expect((await run('view-frozen-scrolled', 'view-frozen', freeze)).score).toBe(1);
  });

  test('a frozen pane against none fails, naming the sheets and both panes', async () => {
    const out = await run('view-frozen', 'view-base', freeze);
    expect(out.score).toBe(0);
    expect(out.failure).toEqual({
      rule: 'freeze', index: 0, sheet: 'result:Sheet1 vs expected:Sheet1',
      actual: '["frozen",1,1]', expected: '["none"]', detail: 'freeze panes differ ([state, xSplit, ySplit])',
    });
    expect((await run('view-base', 'view-frozen', freeze)).failure).toMatchObject({ actual: '["none"]', expected: '["frozen",1,1]' });
  });

  test('another frozen split fails: row 1 only against column A and row 1', async () => {
    expect((await run('view-frozen-row', 'view-frozen', freeze)).failure).toMatchObject({ actual: '["frozen",0,1]', expected: '["frozen",1,1]' });
  });

  test('a split that is not frozen is compared with its top-left cell, and is not a freeze', async () => {
    expect((await run('view-split', 'view-split', freeze)).score).toBe(1);
    // LibreOffice writes a plain split's xSplit/ySplit in twips.
    expect((await run('view-split', 'view-frozen', freeze)).failure).toMatchObject({ actual: '["other",2946,1440,"B5"]', expected: '["frozen",1,1]' });
  });
});

describe('zoom', () => {
  const zoom = (method: string, ref: unknown, sheet_idx: unknown = 0) => [{ type: 'zoom', sheet_idx, method, ref }];

  test('without a zoom set, zoomScale is 100', async () => {
    expect((await run('view-base', 'view-base', zoom('lt', 260))).score).toBe(1);
    expect((await run('view-base', 'view-base', zoom('gt', 100))).failure).toMatchObject({ actual: '100', expected: 'gt 100' });
  });

  test('zoomScale 150 through the rule matcher', async () => {
    expect((await run('view-zoom', 'view-base', zoom('eq', 150))).score).toBe(1);
    expect((await run('view-zoom', 'view-base', zoom('range.te', [100, 150]))).score).toBe(1);
    const out = await run('view-zoom', 'view-base', zoom('lt', 100));
    expect(out.failure).toEqual({ rule: 'zoom', index: 0, sheet: 'result:Sheet1', actual: '150', expected: 'lt 100', detail: 'zoom does not match' });
  });

  test('sheet_idx can name the expected book', async () => {
    expect((await run('view-base', 'view-zoom', zoom('eq', 150, 'EI0'))).score).toBe(1);
    expect((await run('view-zoom', 'view-base', zoom('eq', 150, 'ENSheet1'))).failure).toMatchObject({ sheet: 'expected:Sheet1', actual: '100' });
  });
});

describe('data_validation', () => {
  const dv = [{ ranges: { method: 'spreadsheet_range', ref: ['D2:D29', 'D1:D500'] }, type: { method: 'eq', ref: 'list' }, formula1: { method: 'str_set_eq', ref: ['Pass', 'Fail', 'Held'] } }];
  test('every validator matches a dv_props entry', async () => {
    expect((await run('view-base', 'view-base', [{ type: 'data_validation', sheet_idx: 0, dv_props: dv }])).score).toBe(1);
  });
  test('a different list or a missing validator fails', async () => {
    const other = [{ ...dv[0], formula1: { method: 'str_set_eq', ref: ['Pass', 'Fail'] } }];
    expect((await run('view-base', 'view-base', [{ type: 'data_validation', sheet_idx: 0, dv_props: other }])).failure).toMatchObject({ cell: 'D2:D29' });
    expect((await run('view-no-validation', 'view-base', [{ type: 'data_validation', sheet_idx: 0, dv_props: dv }])).failure).toMatchObject({ actual: '0 validators' });
  });
});

describe('row_props and col_props', () => {
  test('a hidden row', async () => {
    expect((await run('view-base', 'view-base', [{ type: 'row_props', sheet_idx0: 0, sheet_idx1: 'EI0', props: ['hidden'] }])).score).toBe(1);
    expect((await run('view-hidden-row', 'view-base', [{ type: 'row_props', sheet_idx0: 0, sheet_idx1: 'EI0', props: ['hidden'] }])).failure).toMatchObject({ cell: 'row 3', actual: '{"hidden":true}', expected: '{"hidden":false}' });
  });
  test('a wider column', async () => {
    expect((await run('view-base', 'view-base', [{ type: 'col_props', sheet_idx0: 0, sheet_idx1: 'EI0', props: ['width', 'hidden'] }])).score).toBe(1);
    expect((await run('view-width', 'view-base', [{ type: 'col_props', sheet_idx0: 0, sheet_idx1: 'EI0', props: ['width'] }])).failure).toMatchObject({ cell: 'column A', actual: '{"width":22.32}' });
  });
});

// Worksheet auto filters (openpyxl's ws.auto_filter), written by LibreOffice for the sheet's anonymous database range
// (Data ▸ AutoFilter): filter-auto (Region = North), filter-auto-south, filter-auto-units (Units > 5, a custom
// filter), filter-auto-sorted (North, sorted along a custom list: a sortState), and filter-auto-ui (as filter-auto,
// switched on with the .uno:DataFilterAutoFilter command in a GUI LibreOffice).
describe('filter', () => {
  const filter = [{ type: 'filter', sheet_idx0: 0, sheet_idx1: 'EI0' }];
  const north = '[{"col_id":0,"hidden_button":false,"show_button":true,"filters_blank":null,"filters":["North"]}]';

  test('the same filter passes, whether set through the API or the AutoFilter command', async () => {
    expect((await run('filter-auto', 'filter-auto', filter)).score).toBe(1);
    expect((await run('filter-auto-ui', 'filter-auto', filter)).score).toBe(1);
  });

  test('an auto filter against a sheet without one fails at ref', async () => {
    const out = await run('filter-auto', 'view-base', filter);
    expect(out.score).toBe(0);
    expect(out.failure).toEqual({
      rule: 'filter', index: 0, sheet: 'result:Sheet1 vs expected:Sheet1', cell: 'ref', actual: '"A1:D5"', expected: 'null', detail: 'auto filter ref differs',
    });
  });

  test('another value, a custom filter on another column, a sort state', async () => {
    expect((await run('filter-auto-south', 'filter-auto', filter)).failure).toMatchObject({
      cell: 'filter_column', actual: north.replace('North', 'South'), expected: north, detail: 'auto filter filter_column differs',
    });
    expect((await run('filter-auto-units', 'filter-auto', filter)).failure).toMatchObject({
      cell: 'filter_column', actual: '[{"col_id":1,"hidden_button":false,"show_button":true,"custom_filters_op":true,"custom_filters":[["greaterThan","5"]]}]',
    });
    expect((await run('filter-auto-sorted', 'filter-auto', filter)).failure).toMatchObject({
      cell: 'sort_state',
      actual: '{"sort":null,"case":null,"method":null,"ref":"A2:D5","condition":[{"descending":null,"key":null,"ref":"A2:A5","custom_list":"North,East,South,West","dxf_id":null,"icon":null,"iconid":null}]}',
      expected: '(missing)',
    });
  });

  test('a named database range is exported as a table, whose filter is not the sheet\'s auto filter', async () => {
    // filter-base and filter-other filter a named range (xl/tables/table1.xml) on North and South: openpyxl's
    // ws.auto_filter is empty in both, so the rule sees no difference between them, nor against a plain sheet.
    expect((await run('filter-other', 'filter-base', filter)).score).toBe(1);
    expect((await run('filter-base', 'view-base', filter)).score).toBe(1);
    expect((await run('filter-auto', 'filter-base', filter)).failure).toMatchObject({ cell: 'ref', actual: '"A1:D5"', expected: 'null' });
  });
});

describe('chart', () => {
  const rule = (props: string[]) => [{ type: 'chart', sheet_idx0: 0, sheet_idx1: 'EI0', chart_props: props }];
  test('equal charts pass on every property', async () => {
    expect((await run('chart-base', 'chart-base', rule(['title', 'legend', 'anchor', 'width', 'height', 'type', 'direction', 'xtitle', 'ytitle']))).score).toBe(1);
  });
  test('type, title and bar direction differences', async () => {
    expect((await run('chart-line', 'chart-base', rule(['type']))).failure).toMatchObject({ actual: '{"type":"lineChart"}', expected: '{"type":"barChart"}' });
    expect((await run('chart-title', 'chart-base', rule(['title']))).failure).toMatchObject({ actual: '{"title":"Units per region"}' });
    expect((await run('chart-horizontal', 'chart-base', rule(['type', 'direction']))).failure).toMatchObject({ actual: '{"type":"barChart","direction":"bar"}' });
    expect((await run('chart-line', 'chart-base', rule(['title']))).score).toBe(1);
  });
  test('direction of a non-bar chart raises, as openpyxl does', async () => {
    await expect(run('chart-line', 'chart-line', rule(['direction']))).rejects.toThrow(/barDir/);
  });
});

describe('pivot_table', () => {
  const props = ['col_fields', 'filter', 'row_fields', 'data_fields'];
  const rule = (p = props) => [{ type: 'pivot_table', sheet_idx0: 'RNSheet2', sheet_idx1: 'ENSheet2', pivot_props: p }];
  test('equal pivots pass', async () => {
    expect((await run('pivot-base', 'pivot-base', rule([...props, 'name', 'location', 'show_total', 'data_fields_name']))).score).toBe(1);
  });
  test('another row field or data field fails', async () => {
    expect((await run('pivot-row-field', 'pivot-base', rule())).score).toBe(0);
    expect((await run('pivot-data-field', 'pivot-base', rule(['data_fields']))).failure).toMatchObject({ actual: '{"data_fields":["2;;sum;normal"]}', expected: '{"data_fields":["1;;sum;normal"]}' });
  });
});

describe('sparkline', () => {
  test('sparkline ranges', async () => {
    expect((await run('sparkline-base', 'sparkline-base', [{ type: 'sparkline', sheet_idx0: 0, sheet_idx1: 'EI0' }])).score).toBe(1);
    expect((await run('sparkline-range', 'sparkline-base', [{ type: 'sparkline', sheet_idx0: 0, sheet_idx1: 'EI0' }])).failure).toMatchObject({ cell: 'E2', actual: '"Sheet1!A3:D3"', expected: '"Sheet1!A2:D2"' });
  });
});

describe('rules are ANDed in order', () => {
  test('the first failing rule is reported', async () => {
    const out = await run('data-value', 'data-base', [{ type: 'sheet_name' }, { type: 'sheet_data', sheet_idx0: 0, sheet_idx1: 'EI0' }, { type: 'no_such_rule' }]);
    expect(out.failure).toMatchObject({ rule: 'sheet_data', index: 1 });
  });
});

describe('content_from_vm_file xlsx mode and compare_conference_city_in_order', () => {
  test('last row as pandas prints it: NA text is NaN, an int column with a gap is float', async () => {
    expect(await xlsxLastRow(F('data-base'))).toEqual(['West', '3', '4.0', 'nan']);
    expect(await xlsxLastRow(F('data-empty'))).toEqual(['West', 'nan', '4.0', 'nan']);
  });
  test('city names are normalised (accents, case, punctuation)', async () => {
    expect(normalizeCity('  São-Paulo, BR ')).toBe('sao paulo br');
    // C2:C22 of data-base holds prices, then empty cells that can match nothing.
    expect(await compareConferenceCityInOrder(F('data-base'), { expected: ['2 5', '3 25', '1 125', '4', ...Array(17).fill('x')] })).toBe(0);
  });
});
