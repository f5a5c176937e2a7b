// sparkline: OSWorld `load_sparklines` reads `xl/worksheets/sheet{sheetId}.xml` and maps every x14:sparkline's
// xm:sqref (the cell) to its xm:f (the data range).
import { child, descendants } from './xml.ts';
import type { Workbook } from './workbook.ts';
import { MalformedInputError } from '../../../errors.ts';

export async function loadSparklines(book: Workbook, sheetName: string): Promise<Record<string, string>> {
  const entry = book.sheets.find((s) => s.name === sheetName);
  if (!entry) throw new MalformedInputError(`sparkline: no sheet named "${sheetName}" in ${book.file} (KeyError)`);
  const sheet = await book.worksheetBySheetId(sheetName);
  if (!sheet) throw new MalformedInputError(`sparkline: ${book.file} has no xl/worksheets/sheet${entry.sheetId}.xml (KeyError)`);
  const out: Record<string, string> = {};
  for (const sparkline of descendants(sheet.meta, 'sparkline')) {
    const sqref = child(sparkline, 'sqref')?.text;
    const f = child(sparkline, 'f')?.text;
    if (sqref === undefined) throw new MalformedInputError(`sparkline: a sparkline in ${book.file} has no xm:sqref (KeyError)`);
    out[sqref] = f ?? '';
  }
  return out;
}
