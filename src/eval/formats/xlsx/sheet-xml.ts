// One worksheet part: its cells and rows (scanned with regular expressions, fast enough for 100,000-cell sheets) and
// everything outside <sheetData> (views, merges, validations, filters, conditional formats…) as an element tree.
import { decodeEntities, parseXml, type XmlElement } from './xml.ts';
import { MalformedInputError } from '../../../errors.ts';

export interface RawCell {
  row: number;
  col: number;
  /** The `t` attribute (n when absent). */
  type: string;
  /** Style index into cellXfs (0 when absent). */
  style: number;
  /** Text of `<v>`, undefined when there is none. */
  value: string | undefined;
  /** Text of an inline string (`<is>`). */
  inline: string | undefined;
  /** Formula text (without "="), undefined when the cell has no formula. */
  formula: string | undefined;
}

interface RawRow {
  index: number;
  attrs: Record<string, string>;
}

export interface Worksheet {
  path: string;
  cells: RawCell[];
  rows: RawRow[];
  /** The worksheet element without its sheetData. */
  meta: XmlElement;
  /** Cells by "row,col" key, built on first use. */
  lookup(row: number, col: number): RawCell | undefined;
}

const ROW_RE = /<(?:\w+:)?row\b([^>]*?)(?:\/>|>([\s\S]*?)<\/(?:\w+:)?row>)/g;
const CELL_RE = /<(?:\w+:)?c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/(?:\w+:)?c>)/g;
const ATTR_RE = /([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const V_RE = /<(?:\w+:)?v\b[^>]*?(?:\/>|>([\s\S]*?)<\/(?:\w+:)?v>)/;
const F_RE = /<(?:\w+:)?f\b[^>]*?(?:\/>|>([\s\S]*?)<\/(?:\w+:)?f>)/;
const IS_RE = /<(?:\w+:)?is\b[^>]*>([\s\S]*?)<\/(?:\w+:)?is>/;
const T_RE = /<(?:\w+:)?t\b[^>]*?(?:\/>|>([\s\S]*?)<\/(?:\w+:)?t>)/g;

function parseAttributes(text: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const m of text.matchAll(ATTR_RE)) {
    const name = m[1].includes(':') && !m[1].startsWith('xmlns') ? m[1].slice(m[1].indexOf(':') + 1) : m[1];
    attrs[name] = decodeEntities(m[2] ?? m[3] ?? '');
  }
  return attrs;
}

/** "AB12" → {col: 28, row: 12}. */
export function parseCellRef(ref: string): { col: number; row: number } | undefined {
  const m = /^\$?([A-Za-z]{1,3})\$?(\d+)$/.exec(ref);
  if (!m) return undefined;
  let col = 0;
  for (const ch of m[1].toUpperCase()) col = col * 26 + ch.charCodeAt(0) - 64;
  return { col, row: Number(m[2]) };
}

export function columnLetter(col: number): string {
  let letters = '';
  for (let n = col; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

export function cellName(row: number, col: number): string {
  return `${columnLetter(col)}${row}`;
}

export function scanWorksheet(xml: string, path: string, what: string): Worksheet {
  const start = xml.search(/<(?:\w+:)?sheetData\b/);
  let sheetData = '';
  let rest = xml;
  if (start >= 0) {
    const selfClosing = /^<(?:\w+:)?sheetData\b[^>]*\/>/.exec(xml.slice(start));
    const endTag = /<\/(?:\w+:)?sheetData>/g;
    endTag.lastIndex = start;
    const end = selfClosing ? start + selfClosing[0].length : (endTag.exec(xml)?.index ?? -1);
    if (end < 0) throw new MalformedInputError(`${what}: <sheetData> is not closed`);
    const stop = selfClosing ? end : end + (endTag.lastIndex - end);
    sheetData = xml.slice(start, stop);
    rest = xml.slice(0, start) + xml.slice(stop);
  }
  const cells: RawCell[] = [];
  const rows: RawRow[] = [];
  let rowCounter = 0;
  for (const rowMatch of sheetData.matchAll(ROW_RE)) {
    const attrs = parseAttributes(rowMatch[1]);
    rowCounter = attrs.r ? Number(attrs.r) : rowCounter + 1;
    rows.push({ index: rowCounter, attrs });
    let colCounter = 0;
    for (const cellMatch of (rowMatch[2] ?? '').matchAll(CELL_RE)) {
      const cellAttrs = parseAttributes(cellMatch[1]);
      const position = cellAttrs.r ? parseCellRef(cellAttrs.r) : undefined;
      const col = position ? position.col : colCounter + 1;
      colCounter = col;
      const body = cellMatch[2] ?? '';
      const v = body ? V_RE.exec(body) : null;
      const f = body ? F_RE.exec(body) : null;
      const inlineBody = body && cellAttrs.t === 'inlineStr' ? IS_RE.exec(body) : null;
      let inline: string | undefined;
      if (inlineBody) {
        inline = '';
        for (const t of inlineBody[1].matchAll(T_RE)) inline += decodeEntities(t[1] ?? '');
      }
      cells.push({
        row: position ? position.row : rowCounter,
        col,
        type: cellAttrs.t ?? 'n',
        style: cellAttrs.s ? Number(cellAttrs.s) : 0,
        value: v ? decodeEntities(v[1] ?? '') : undefined,
        inline,
        formula: f ? decodeEntities(f[1] ?? '') : undefined,
      });
    }
  }
  const meta = parseXml(rest, what);
  let index: Map<number, RawCell> | undefined;
  return {
    path,
    cells,
    rows,
    meta,
    lookup(row, col) {
      if (!index) {
        index = new Map();
        for (const cell of cells) index.set(cell.row * 20000 + cell.col, cell);
      }
      return index.get(row * 20000 + col);
    },
  };
}
