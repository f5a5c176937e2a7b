// filter: OSWorld `load_filters` over openpyxl's `ws.auto_filter`: the ref, the filter columns (sorted by column id)
// and the sort state. Python sets become sorted lists here.
import { child, children, type XmlElement } from './xml.ts';
import type { Worksheet } from './sheet-xml.ts';

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

function bool(value: string | undefined, fallback: boolean | null): boolean | null {
  return value === undefined ? fallback : !['false', 'f', '0'].includes(value.toLowerCase());
}

function int(value: string | undefined): number | null {
  return value === undefined ? null : Number(value);
}

function noneSet(value: string | undefined): string | null {
  return value === undefined || value === 'none' ? null : value;
}

function sortedSet<T extends Json>(values: T[]): T[] {
  const unique = new Map(values.map((v) => [JSON.stringify(v), v]));
  return [...unique.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);
}

function filterColumn(column: XmlElement): Record<string, Json> {
  const out: Record<string, Json> = {
    col_id: int(column.attrs.colId),
    hidden_button: bool(column.attrs.hiddenButton, false),
    show_button: bool(column.attrs.showButton, true),
  };
  const filters = child(column, 'filters');
  if (filters) {
    out.filters_blank = bool(filters.attrs.blank, null);
    out.filters = sortedSet(children(filters, 'filter').map((f) => f.attrs.val ?? null));
  }
  const custom = child(column, 'customFilters');
  if (custom) {
    out.custom_filters_op = bool(custom.attrs.and, null);
    out.custom_filters = sortedSet(children(custom, 'customFilter').map((f) => [f.attrs.operator ?? 'equal', f.attrs.val ?? null]));
  }
  return out;
}

export function loadFilters(sheet: Worksheet | undefined): Record<string, Json> {
  if (!sheet) return {};
  const auto = child(sheet.meta, 'autoFilter');
  const out: Record<string, Json> = { ref: auto?.attrs.ref ?? null };
  out.filter_column = children(auto, 'filterColumn')
    .map(filterColumn)
    .sort((a, b) => Number(a.col_id) - Number(b.col_id));
  const sort = child(auto, 'sortState');
  if (sort) {
    out.sort_state = {
      sort: bool(sort.attrs.columnSort, null),
      case: bool(sort.attrs.caseSensitive, null),
      method: noneSet(sort.attrs.sortMethod),
      ref: sort.attrs.ref ?? null,
      condition: children(sort, 'sortCondition').map((c) => ({
        descending: bool(c.attrs.descending, null),
        key: noneSet(c.attrs.sortBy),
        ref: c.attrs.ref ?? null,
        custom_list: c.attrs.customList ?? null,
        dxf_id: int(c.attrs.dxfId),
        icon: noneSet(c.attrs.iconSet),
        iconid: int(c.attrs.iconId),
      })),
    };
  }
  return out;
}
