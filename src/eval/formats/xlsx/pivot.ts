// pivot_table: OSWorld `load_pivot_tables` over openpyxl's `ws._pivots`, keyed by the cache source
// "type;(row1, col1):(row2, col2);sheet" where the columns are narrowed past leading/trailing fields that have no
// items. pivot_props: name, show_total, show_empty_row, show_empty_col, show_headers, location, selection | filter
// (+ ordered), col_fields, row_fields, data_fields (+ data_fields_name), ignore_special_fields.
import { parseCellRef } from './sheet-xml.ts';
import { child, children } from './xml.ts';
import type { Workbook } from './workbook.ts';
import { MalformedInputError } from '../../../errors.ts';

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

function bool(value: string | undefined, fallback: boolean | null): boolean | null {
  return value === undefined ? fallback : !['false', 'f', '0'].includes(value.toLowerCase());
}

function sortedSet(values: Json[]): Json[] {
  const unique = new Map(values.map((v) => [JSON.stringify(v), v]));
  return [...unique.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);
}

export async function loadPivotTables(book: Workbook, sheetName: string, pivotProps: string[]): Promise<Record<string, Record<string, Json>>> {
  const out: Record<string, Record<string, Json>> = {};
  const entry = book.sheets.find((s) => s.name === sheetName && s.isWorksheet);
  if (!entry?.path) return out;
  const props = new Set(pivotProps);
  const sheetRels = await book.relationships(entry.path);
  const workbookRels = await book.relationships('xl/workbook.xml');
  const caches = new Map<string, string>();
  for (const cache of children(child(book.workbookXml, 'pivotCaches'), 'pivotCache')) {
    const rel = workbookRels.get(cache.attrs.id ?? '');
    if (rel) caches.set(cache.attrs.cacheId ?? '', rel.target);
  }
  for (const rel of sheetRels.values()) {
    if (!rel.type.endsWith('/pivotTable')) continue;
    const pivot = await book.xml(rel.target);
    if (!pivot) continue;
    const cachePath = caches.get(pivot.attrs.cacheId ?? '');
    const cache = cachePath ? await book.xml(cachePath) : undefined;
    if (!cache) throw new MalformedInputError(`pivot_table: ${book.file}: pivot cache ${pivot.attrs.cacheId} of ${rel.target} not found`);
    const fields = children(child(pivot, 'pivotFields'), 'pivotField');
    const raw = fields.map((f) =>
      children(child(f, 'items'), 'item')
        .filter((item) => item.attrs.x !== undefined)
        .map((item): Json => [bool(item.attrs.h, null), Number(item.attrs.x)]),
    );
    let left = 0;
    while (left < raw.length && raw[left].length === 0) left++;
    let end = raw.length;
    while (end > left && raw[end - 1].length === 0) end--;
    const right = raw.length - end;
    const selection = raw.slice(left, end);
    const source = child(cache, 'cacheSource');
    const worksheetSource = child(source, 'worksheetSource');
    const ref = worksheetSource?.attrs.ref;
    if (!ref?.includes(':')) throw new MalformedInputError(`pivot_table: ${book.file}: the pivot cache source has no range ref (OSWorld cannot split it)`);
    const [from, to] = ref.split(':');
    const a = parseCellRef(from)!;
    const b = parseCellRef(to)!;
    const key = `${source?.attrs.type ?? 'None'};(${a.row}, ${a.col + left}):(${b.row}, ${b.col - right});${worksheetSource?.attrs.sheet ?? 'None'}`;

    const info: Record<string, Json> = {};
    if (props.has('name')) info.name = pivot.attrs.name ?? null;
    if (props.has('show_total')) info.show_total = bool(pivot.attrs.visualTotals, true);
    if (props.has('show_empty_row')) info.show_empty_row = bool(pivot.attrs.showEmptyRow, false);
    if (props.has('show_empty_col')) info.show_empty_col = bool(pivot.attrs.showEmptyCol, false);
    if (props.has('show_headers')) info.show_headers = bool(pivot.attrs.showHeaders, true);
    if (props.has('location')) {
      const location = child(pivot, 'location');
      info.location = location
        ? Object.fromEntries(
            ['ref', 'firstHeaderRow', 'firstDataRow', 'firstDataCol', 'rowPageCount', 'colPageCount']
              .filter((k) => location.attrs[k] !== undefined)
              .map((k) => [k, k === 'ref' ? location.attrs[k] : String(Number(location.attrs[k]))]),
          )
        : null;
    }
    if (props.has('filter') || props.has('selection')) info.selection = props.has('ordered') ? selection : selection.map((s) => sortedSet(s));
    if (props.has('filter')) info.filter_fields = sortedSet(children(child(pivot, 'pageFields'), 'pageField').map((f) => Number(f.attrs.fld)));
    const axisFields = (name: string) => {
      let xs = children(child(pivot, name), 'field').map((f) => Number(f.attrs.x) - left);
      if (props.has('ignore_special_fields')) xs = xs.filter((x) => x >= 0);
      return xs;
    };
    if (props.has('col_fields')) info.col_fields = axisFields('colFields');
    if (props.has('row_fields')) info.row_fields = axisFields('rowFields');
    if (props.has('data_fields')) {
      info.data_fields = children(child(pivot, 'dataFields'), 'dataField').map(
        (f) =>
          `${Number(f.attrs.fld) - left};${props.has('data_fields_name') ? (f.attrs.name ?? 'None') : ''};${f.attrs.subtotal ?? 'sum'};${f.attrs.showDataAs ?? 'normal'}`,
      );
    }
    out[key] = info;
  }
  return out;
}
