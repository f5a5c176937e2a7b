// compare_conference_city_in_order(result_xlsx, {expected: [city | [alternatives]]}): cells C2:C22 of the active
// sheet, in order; each must contain (after lower-casing, accent and punctuation removal) its expected city or one of
// the alternatives.
import { openpyxlCell } from '../../formats/xlsx/cell-values.ts';
import { pyStr } from '../../../python/values.ts';
import { bookEpoch } from '../../formats/xlsx/sheet-data.ts';
import { child } from '../../formats/xlsx/xml.ts';
import { tryOpenWorkbook } from '../../formats/xlsx/workbook.ts';
import { MetricOptionsError } from '../../errors.ts';
import { MalformedInputError } from '../../../errors.ts';

export function normalizeCity(value: string): string {
  return value
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

export async function compareConferenceCityInOrder(result: unknown, expected: unknown): Promise<number> {
  const list = (expected as { expected?: unknown } | null)?.expected;
  if (!Array.isArray(list)) throw new MetricOptionsError('compare_conference_city_in_order: expected must be {expected: [city or [alternatives], …]}');
  const book = await tryOpenWorkbook(result);
  if (!book) throw new MalformedInputError(`compare_conference_city_in_order: cannot open ${JSON.stringify(result)}`);
  const activeTab = Number(child(child(book.workbookXml, 'bookViews'), 'workbookView')?.attrs.activeTab ?? 0);
  const entry = book.sheets[activeTab] ?? book.sheets[0];
  const sheet = entry ? await book.worksheet(entry.name) : undefined;
  if (!sheet) throw new MalformedInputError(`compare_conference_city_in_order: ${book.file} has no active worksheet`);
  const styles = await book.styles();
  const strings = (await book.sharedStrings()).openpyxl;
  const epoch = bookEpoch(book.workbookXml);
  for (let row = 2; row <= 22; row++) {
    const raw = sheet.lookup(row, 3);
    const value = raw ? openpyxlCell(raw, styles, strings, false, epoch).value : null;
    const actual = normalizeCity(value && value.t !== 'none' ? pyStr(value) : '');
    const entryExpected = list[row - 2];
    if (entryExpected === undefined) return 0; // IndexError → 0
    const candidates = typeof entryExpected === 'string' ? [entryExpected] : Array.isArray(entryExpected) ? entryExpected : null;
    if (!candidates) return 0; // TypeError → 0
    const matched = candidates.some((c) => {
      const normalized = normalizeCity(String(c));
      return normalized !== '' && actual.includes(normalized);
    });
    if (!matched) return 0;
  }
  return 1;
}
