// A .docx read the way python-docx 1.2.0 (what OSWorld's docs.py uses) reads it. Only what the metrics need.
//
// Paragraph text (python-docx 1.2.0, `CT_P.text` / `CT_R.text`): the concatenation, in document order, of the
// paragraph's DIRECT `w:r` and `w:hyperlink` children; inside a run `w:t` gives its text, `w:tab` and `w:ptab` "\t",
// `w:br` "\n" when its type is textWrapping (the default) and "" for page/column breaks, `w:cr` "\n",
// `w:noBreakHyphen` "-". Consequences, all deliberate: tracked insertions (`w:ins`) and deletions (`w:del`) are
// excluded because their runs are not direct children; `w:fldSimple` content is excluded; field codes
// (`w:instrText`) are excluded while a complex field's result runs are included; `w:sdt` content is excluded.
// Older python-docx (< 1.0) mapped `w:br` to "\n" for every type and skipped hyperlinks; we match 1.2.0.
import { posix } from 'node:path';
import { mainPartName, openPackage, readBinary, readRelationships, requireXmlPart } from '../office/package.ts';
import type { OfficePackage } from '../office/package.ts';
import { child, children, descendants, ownText } from '../office/xml.ts';
import type { XmlElement } from '../office/xml.ts';
import { MalformedInputError } from '../../../errors.ts';

export interface Docx {
  file: string;
  pkg: OfficePackage;
  partName: string;
  body: XmlElement;
}

export async function openDocx(file: string): Promise<Docx> {
  const pkg = await openPackage(file);
  const partName = await mainPartName(pkg);
  const documentXml = await requireXmlPart(pkg, partName);
  const body = child(documentXml, 'w:body');
  if (!body) throw new MalformedInputError(`${file}: ${partName} has no w:body`);
  return { file, pkg, partName, body };
}

/** `document.paragraphs`: the body's direct `w:p` children (not those in tables, text boxes or content controls). */
export function bodyParagraphs(doc: Docx): XmlElement[] {
  return children(doc.body, 'w:p');
}

/** `document.tables`: the body's direct `w:tbl` children. */
export function bodyTables(doc: Docx): XmlElement[] {
  return children(doc.body, 'w:tbl');
}

export function paragraphText(p: XmlElement): string {
  let out = '';
  for (const c of children(p, 'w:r', 'w:hyperlink')) {
    out += c.name === 'w:r' ? runText(c) : children(c, 'w:r').map(runText).join('');
  }
  return out;
}

/** `paragraph.runs`: direct `w:r` children only (runs inside hyperlinks are not listed). */
export function paragraphRuns(p: XmlElement): XmlElement[] {
  return children(p, 'w:r');
}

export function runText(r: XmlElement): string {
  let out = '';
  for (const c of children(r, 'w:br', 'w:cr', 'w:noBreakHyphen', 'w:ptab', 'w:t', 'w:tab')) {
    if (c.name === 'w:t') out += ownText(c);
    else if (c.name === 'w:tab' || c.name === 'w:ptab') out += '\t';
    else if (c.name === 'w:cr') out += '\n';
    else if (c.name === 'w:noBreakHyphen') out += '-';
    else out += (c.attrs['w:type'] ?? 'textWrapping') === 'textWrapping' ? '\n' : '';
  }
  return out;
}

/** ST_OnOff as python-docx reads it: absent element → null, `w:val` absent → true, "0"/"false"/"off" → false. */
function onOff(el: XmlElement | undefined): boolean | null {
  if (!el) return null;
  const val = el.attrs['w:val'];
  if (val === undefined) return true;
  if (['1', 'true', 'on'].includes(val)) return true;
  if (['0', 'false', 'off'].includes(val)) return false;
  throw new MalformedInputError(`invalid on/off value ${JSON.stringify(val)} on ${el.name}`);
}

/** Run-level formatting as python-docx's `run.font` reports it: the run's own `w:rPr` only, no style inheritance. */
export interface RunFont {
  /** `w:rFonts/@w:ascii` */
  name: string | null;
  /** `w:sz/@w:val` in points (half-points / 2) */
  sizePt: number | null;
  bold: boolean | null;
  italic: boolean | null;
  strike: boolean | null;
  /** true when `w:vertAlign` is subscript, false for another value, null without `w:vertAlign` */
  subscript: boolean | null;
  /** `w:color/@w:val` as RRGGBB, null when absent or "auto" */
  colorRgb: string | null;
}

export function runFont(r: XmlElement): RunFont {
  const rPr = child(r, 'w:rPr');
  const vertAlign = child(rPr, 'w:vertAlign');
  const sz = child(rPr, 'w:sz')?.attrs['w:val'];
  const color = child(rPr, 'w:color')?.attrs['w:val'];
  return {
    name: child(rPr, 'w:rFonts')?.attrs['w:ascii'] ?? null,
    sizePt: sz === undefined ? null : Number(sz) / 2,
    bold: onOff(child(rPr, 'w:b')),
    italic: onOff(child(rPr, 'w:i')),
    strike: onOff(child(rPr, 'w:strike')),
    subscript: vertAlign ? vertAlign.attrs['w:val'] === 'subscript' : null,
    colorRgb: color === undefined || color === 'auto' ? null : color.toUpperCase(),
  };
}

/** `paragraph_format.alignment` as the raw `w:jc/@w:val` ("center", "left", "both", …), null when absent. */
export function paragraphAlignment(p: XmlElement): string | null {
  return child(child(p, 'w:pPr'), 'w:jc')?.attrs['w:val'] ?? null;
}

/**
 * `paragraph_format.line_spacing`: null without `w:spacing/@w:line`; lines (line/240) when the rule is "auto" or
 * absent; otherwise the absolute height in EMU (twips × 635), python-docx's Length.
 */
export function lineSpacing(p: XmlElement): number | null {
  const spacing = child(child(p, 'w:pPr'), 'w:spacing');
  const line = spacing?.attrs['w:line'];
  if (line === undefined) return null;
  const rule = spacing!.attrs['w:lineRule'];
  const twips = Number(line);
  return rule === undefined || rule === 'auto' ? twips / 240 : twips * 635;
}

export interface TabStop {
  /** `w:val` ("left", "right", "center", "decimal", "bar", "clear", …) */
  alignment: string;
  /** `w:pos` in twips */
  position: number;
}

export function tabStops(p: XmlElement): TabStop[] {
  return children(child(child(p, 'w:pPr'), 'w:tabs'), 'w:tab').map((tab) => ({
    alignment: tab.attrs['w:val'] ?? '',
    position: Number(tab.attrs['w:pos']),
  }));
}

/** `document.sections`: every `w:sectPr` of a body paragraph, then the body's own, in document order. */
export function sections(doc: Docx): XmlElement[] {
  const out: XmlElement[] = [];
  for (const c of children(doc.body, 'w:p', 'w:sectPr')) {
    if (c.name === 'w:sectPr') out.push(c);
    else {
      const sectPr = child(child(c, 'w:pPr'), 'w:sectPr');
      if (sectPr) out.push(sectPr);
    }
  }
  return out;
}

/**
 * `section.footer.paragraphs` (the default footer): the section's own definition, else the previous section's
 * (recursively), else none — python-docx would add an empty footer, whose text is "" either way.
 */
export async function footerParagraphs(doc: Docx, sectionIndex: number): Promise<XmlElement[]> {
  const all = sections(doc);
  for (let i = sectionIndex; i >= 0; i--) {
    const ref = children(all[i], 'w:footerReference').find((f) => (f.attrs['w:type'] ?? 'default') === 'default');
    if (!ref) continue;
    const rel = (await readRelationships(doc.pkg, doc.partName)).find((r) => r.id === ref.attrs['r:id']);
    if (!rel || rel.external) throw new MalformedInputError(`${doc.file}: footer relationship ${ref.attrs['r:id']} not found`);
    return children(await requireXmlPart(doc.pkg, rel.target), 'w:p');
  }
  return [];
}

/** Section page geometry in twips (`w:pgSz`, `w:pgMar`). */
export function sectionGeometry(sectPr: XmlElement): { pageWidth: number; leftMargin: number; rightMargin: number } {
  const pgSz = child(sectPr, 'w:pgSz');
  const pgMar = child(sectPr, 'w:pgMar');
  const num = (value: string | undefined, what: string): number => {
    if (value === undefined) throw new MalformedInputError(`section has no ${what}`);
    return Number(value);
  };
  return {
    pageWidth: num(pgSz?.attrs['w:w'], 'w:pgSz/@w:w'),
    leftMargin: num(pgMar?.attrs['w:left'], 'w:pgMar/@w:left'),
    rightMargin: num(pgMar?.attrs['w:right'], 'w:pgMar/@w:right'),
  };
}

/** A table as python-docx lays it out: grid columns from `w:tblGrid`, cells repeated over spans. */
export interface DocxTable {
  rowCount: number;
  columnCount: number;
  /** `table.cell(r, c)` — the cell element (python-docx `_cells` grid: spans repeat, vMerge continue points up). */
  cell(row: number, column: number): XmlElement;
  /** `table.rows[r].cells` — cells present in that row, spans repeated, vMerge continuations resolved upwards. */
  rowCells(row: number): XmlElement[];
}

export function readTable(tbl: XmlElement): DocxTable {
  const rows = children(tbl, 'w:tr');
  const columnCount = children(child(tbl, 'w:tblGrid'), 'w:gridCol').length;
  const gridSpan = (tc: XmlElement): number => Number(child(child(tc, 'w:tcPr'), 'w:gridSpan')?.attrs['w:val'] ?? 1);
  const vMerge = (tc: XmlElement): string | null => {
    const el = child(child(tc, 'w:tcPr'), 'w:vMerge');
    return el ? (el.attrs['w:val'] ?? 'continue') : null;
  };
  let grid: XmlElement[] | undefined;
  const cells = (): XmlElement[] => {
    if (grid) return grid;
    grid = [];
    for (const tr of rows) {
      for (const tc of children(tr, 'w:tc')) {
        for (let span = 0; span < gridSpan(tc); span++) {
          if (vMerge(tc) === 'continue') grid.push(grid[grid.length - columnCount]);
          else if (span > 0) grid.push(grid[grid.length - 1]);
          else grid.push(tc);
        }
      }
    }
    return grid;
  };
  const gridOffset = (tr: XmlElement, tc: XmlElement): number => {
    let offset = Number(child(child(tr, 'w:trPr'), 'w:gridBefore')?.attrs['w:val'] ?? 0);
    for (const other of children(tr, 'w:tc')) {
      if (other === tc) break;
      offset += gridSpan(other);
    }
    return offset;
  };
  const tcAt = (tr: XmlElement, offset: number): XmlElement => {
    let remaining = offset - Number(child(child(tr, 'w:trPr'), 'w:gridBefore')?.attrs['w:val'] ?? 0);
    for (const tc of children(tr, 'w:tc')) {
      if (remaining < 0) break;
      if (remaining === 0) return tc;
      remaining -= gridSpan(tc);
    }
    throw new MalformedInputError(`no table cell at grid offset ${offset}`);
  };
  const rootOf = (rowIndex: number, tc: XmlElement): XmlElement => {
    if (vMerge(tc) !== 'continue' || rowIndex === 0) return tc;
    return rootOf(rowIndex - 1, tcAt(rows[rowIndex - 1], gridOffset(rows[rowIndex], tc)));
  };
  return {
    rowCount: rows.length,
    columnCount,
    cell(row, column) {
      const found = cells()[column + row * columnCount];
      if (!found) throw new MalformedInputError(`table cell (${row}, ${column}) is out of range`);
      return found;
    },
    rowCells(rowIndex) {
      const out: XmlElement[] = [];
      for (const tc of children(rows[rowIndex], 'w:tc')) {
        const root = rootOf(rowIndex, tc);
        for (let i = 0; i < gridSpan(tc); i++) out.push(root);
      }
      return out;
    },
  };
}

/** `cell.paragraphs`: the cell's direct `w:p` children. */
export function cellParagraphs(tc: XmlElement): XmlElement[] {
  return children(tc, 'w:p');
}

/** `cell.text`: its paragraphs' texts joined with "\n". */
export function cellText(tc: XmlElement): string {
  return cellParagraphs(tc).map(paragraphText).join('\n');
}

/** Image parts related to the main document, in relationship order (python-docx `doc.part.rels`, "image" in type). */
export async function documentImages(doc: Docx): Promise<{ name: string; data: Buffer }[]> {
  const rels = await readRelationships(doc.pkg, doc.partName);
  const out: { name: string; data: Buffer }[] = [];
  for (const rel of rels) {
    if (!rel.type.includes('image')) continue;
    if (rel.external) throw new MalformedInputError(`${doc.file}: image relationship ${rel.id} is external (${rel.rawTarget})`);
    out.push({ name: posix.basename(rel.target), data: await readBinary(doc.pkg, rel.target) });
  }
  return out;
}

/** Page breaks counted as contains_page_break does: `w:br` with type "page" anywhere inside body paragraphs' runs. */
export function pageBreakCount(doc: Docx): number {
  let count = 0;
  for (const p of bodyParagraphs(doc)) {
    for (const r of paragraphRuns(p)) count += descendants(r, 'w:br').filter((br) => br.attrs['w:type'] === 'page').length;
  }
  return count;
}
