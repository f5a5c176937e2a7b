// row_props / col_props: openpyxl's row_dimensions / column_dimensions, {key: {prop: value}} for the asked props.
// A row gets a dimension when its <row> element has attributes other than r and spans; columns come from <cols>,
// keyed by the letter of their first column.
import { columnLetter, type Worksheet } from './sheet-xml.ts';
import { child, children } from './xml.ts';
import { MetricOptionsError } from '../../errors.ts';

export type Dimensions = Record<string, Record<string, number | boolean | string | null>>;

function bool(value: string | undefined, fallback: boolean): boolean {
  return value === undefined ? fallback : !['false', 'f', '0'].includes(value.toLowerCase());
}

function num(value: string | undefined): number | null {
  return value === undefined ? null : Number(value);
}

const ROW_PROPS: Record<string, (a: Record<string, string>) => number | boolean | null> = {
  hidden: (a) => bool(a.hidden, false),
  collapsed: (a) => bool(a.collapsed, false),
  height: (a) => num(a.ht),
  ht: (a) => num(a.ht),
  outlineLevel: (a) => num(a.outlineLevel) ?? 0,
  outline_level: (a) => num(a.outlineLevel) ?? 0,
  customHeight: (a) => a.ht !== undefined,
};

const COLUMN_PROPS: Record<string, (a: Record<string, string>) => number | boolean | null> = {
  width: (a) => num(a.width) ?? 13,
  auto_size: (a) => bool(a.bestFit, false),
  bestFit: (a) => bool(a.bestFit, false),
  hidden: (a) => bool(a.hidden, false),
  collapsed: (a) => bool(a.collapsed, false),
  min: (a) => num(a.min),
  max: (a) => num(a.max),
  outlineLevel: (a) => num(a.outlineLevel) ?? 0,
  outline_level: (a) => num(a.outlineLevel) ?? 0,
  customWidth: (a) => bool(a.customWidth, false),
};

export function loadRowsOrCols(sheet: Worksheet | undefined, obj: 'row' | 'column', props: string[]): Dimensions {
  const out: Dimensions = {};
  if (!sheet) return out;
  const table = obj === 'row' ? ROW_PROPS : COLUMN_PROPS;
  for (const prop of props) if (!(prop in table)) throw new MetricOptionsError(`${obj}_props: unknown property "${prop}" (expected ${Object.keys(table).join(', ')})`);
  const entries: [string, Record<string, string>][] =
    obj === 'row'
      ? sheet.rows.filter((r) => Object.keys(r.attrs).some((k) => k !== 'r' && k !== 'spans')).map((r) => [String(r.index), r.attrs])
      : children(child(sheet.meta, 'cols'), 'col').map((c) => [columnLetter(Number(c.attrs.min)), c.attrs]);
  for (const [key, attrs] of entries) out[key] = Object.fromEntries(props.map((p) => [p, table[p](attrs)]));
  return out;
}
