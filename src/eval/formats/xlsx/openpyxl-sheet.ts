// A worksheet as `openpyxl.load_workbook(path)` (not data_only) presents it to the style checks: a grid of cells
// whose value is the formula text for formula cells, the non-anchor cells of merged ranges as MergedCell (no value,
// default style), and hyperlinks attached to cells. The grid spans A1 to (max_column, max_row) of existing cells.
import { NONE, type PyValue } from '../../../python/values.ts';
import { openpyxlCell, type DataType } from './cell-values.ts';
import { parseCellRef } from './sheet-xml.ts';
import type { Stylesheet } from './stylesheet.ts';
import { child, children } from './xml.ts';
import type { Workbook } from './workbook.ts';
import { bookEpoch } from './sheet-data.ts';

/** openpyxl compares Hyperlink objects by these attributes (its `__attrs__`); the target URL is not one of them. */
export interface Hyperlink {
  ref: string;
  location?: string;
  tooltip?: string;
  display?: string;
  id?: string;
}

export interface SheetCell {
  row: number;
  col: number;
  value: PyValue;
  dataType: DataType;
  style: number;
  merged: boolean;
  hyperlink: Hyperlink | null;
}

export interface OpenpyxlSheet {
  name: string;
  styles: Stylesheet;
  maxRow: number;
  maxCol: number;
  cell(row: number, col: number): SheetCell;
}

/** `workbook[sheetName]` of a full (formula-keeping) openpyxl load; undefined when there is no such sheet. */
export async function loadOpenpyxlSheet(book: Workbook, sheetName: string): Promise<OpenpyxlSheet | undefined> {
  const sheet = await book.worksheet(sheetName);
  if (!sheet) return undefined;
  const styles = await book.styles();
  const strings = (await book.sharedStrings()).openpyxl;
  const epoch = bookEpoch(book.workbookXml);
  const cells = new Map<number, SheetCell>();
  const key = (row: number, col: number) => row * 20000 + col;
  for (const raw of sheet.cells) {
    const { value, dataType } = openpyxlCell(raw, styles, strings, false, epoch);
    cells.set(key(raw.row, raw.col), { row: raw.row, col: raw.col, value, dataType, style: raw.style, merged: false, hyperlink: null });
  }
  const empty = (row: number, col: number): SheetCell => ({ row, col, value: NONE, dataType: 'n', style: 0, merged: false, hyperlink: null });
  const mergedRanges: { r1: number; c1: number; r2: number; c2: number }[] = [];
  for (const merge of children(child(sheet.meta, 'mergeCells'), 'mergeCell')) {
    const [from, to = from] = (merge.attrs.ref ?? '').split(':');
    const a = parseCellRef(from);
    const b = parseCellRef(to);
    if (!a || !b) continue;
    mergedRanges.push({ r1: a.row, c1: a.col, r2: b.row, c2: b.col });
    for (let r = a.row; r <= b.row; r++) {
      for (let c = a.col; c <= b.col; c++) {
        if (r === a.row && c === a.col) continue;
        cells.set(key(r, c), { ...empty(r, c), merged: true });
      }
    }
  }
  for (const link of children(child(sheet.meta, 'hyperlinks'), 'hyperlink')) {
    const ref = link.attrs.ref ?? '';
    const [from, to = from] = ref.split(':');
    const a = parseCellRef(from);
    const b = parseCellRef(to);
    if (!a || !b) continue;
    for (let r = a.row; r <= b.row; r++) {
      for (let c = a.col; c <= b.col; c++) {
        let row = r;
        let col = c;
        const target = cells.get(key(r, c));
        if (target?.merged) {
          if (a.row !== b.row || a.col !== b.col) continue; // a range link skips merged cells
          const range = mergedRanges.find((m) => r >= m.r1 && r <= m.r2 && c >= m.c1 && c <= m.c2);
          if (!range) continue;
          row = range.r1;
          col = range.c1;
        }
        let cell = cells.get(key(row, col));
        if (!cell) cells.set(key(row, col), (cell = empty(row, col)));
        const hyperlink: Hyperlink = { ref: `${columnName(col)}${row}` };
        for (const attr of ['location', 'tooltip', 'display', 'id'] as const) {
          if (link.attrs[attr] !== undefined) hyperlink[attr] = link.attrs[attr];
        }
        cell.hyperlink = hyperlink;
      }
    }
  }
  let maxRow = 1;
  let maxCol = 1;
  for (const cell of cells.values()) {
    if (cell.row > maxRow) maxRow = cell.row;
    if (cell.col > maxCol) maxCol = cell.col;
  }
  return {
    name: sheetName,
    styles,
    maxRow,
    maxCol,
    cell: (row, col) => cells.get(key(row, col)) ?? empty(row, col),
  };
}

function columnName(col: number): string {
  let letters = '';
  for (let n = col; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}
