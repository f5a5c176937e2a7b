// A .pptx read the way python-pptx 1.0.2 (what OSWorld's slides.py uses) reads it. Only what the metrics need.
//
// - Slides in presentation order: `p:sldIdLst/p:sldId/@r:id` through presentation.xml's relationships.
// - Shapes: the `p:spTree` (or group) children that are p:sp, p:grpSp, p:graphicFrame, p:cxnSp, p:pic or
//   p:contentPart, in document order. Positions come from the shape's own xfrm; a slide-level placeholder p:sp or
//   p:pic without one inherits from the layout placeholder with the same idx, which inherits from the master
//   placeholder of the matching type (python-pptx's _InheritsDimensions). A placeholder graphicFrame does not.
// - Fonts are run-level only, as python-pptx's `run.font`: `a:rPr` attributes and children, never the placeholder,
//   layout, master or theme. The colour has an `.rgb` only for `a:solidFill/a:srgbClr`; any other colour (scheme,
//   preset, …) or fill raises AttributeError there, which OSWorld's `hasattr(color, "rgb")` turns into "skip".
import { openPackage, readRelationships, requireXmlPart } from '../office/package.ts';
import type { OfficePackage, Relationship } from '../office/package.ts';
import { child, children, leadingText, path } from '../office/xml.ts';
import type { XmlElement } from '../office/xml.ts';
import { MalformedInputError } from '../../../errors.ts';

export interface Pptx {
  file: string;
  pkg: OfficePackage;
  /** `prs.slide_width` / `slide_height` in EMU (null when presentation.xml has no p:sldSz). */
  slideWidth: number | null;
  slideHeight: number | null;
  slides: Slide[];
}

export interface Slide {
  partName: string;
  xml: XmlElement;
  rels: Relationship[];
  /** 0-based position in the presentation. */
  index: number;
}

export async function openPptx(file: string): Promise<Pptx> {
  const pkg = await openPackage(file);
  const main = (await readRelationships(pkg, '')).find((r) => r.type.endsWith('/officeDocument'));
  if (!main) throw new MalformedInputError(`${file} has no officeDocument relationship (not a presentation?)`);
  const presentation = await requireXmlPart(pkg, main.target);
  const rels = await readRelationships(pkg, main.target);
  const slides: Slide[] = [];
  for (const sldId of children(child(presentation, 'p:sldIdLst'), 'p:sldId')) {
    const rel = rels.find((r) => r.id === sldId.attrs['r:id']);
    if (!rel) throw new MalformedInputError(`${file}: slide relationship ${sldId.attrs['r:id']} not found`);
    slides.push({
      partName: rel.target,
      xml: await requireXmlPart(pkg, rel.target),
      rels: await readRelationships(pkg, rel.target),
      index: slides.length,
    });
  }
  const size = child(presentation, 'p:sldSz');
  const emu = (v: string | undefined) => (v === undefined ? null : Number(v));
  return { file, pkg, slides, slideWidth: emu(size?.attrs.cx), slideHeight: emu(size?.attrs.cy) };
}

async function relatedPart(pkg: OfficePackage, rels: Relationship[], typeEnding: string): Promise<{ name: string; xml: XmlElement } | null> {
  const rel = rels.find((r) => r.type.endsWith(typeEnding) && !r.external);
  return rel ? { name: rel.target, xml: await requireXmlPart(pkg, rel.target) } : null;
}

async function slideLayout(pptx: Pptx, slide: Slide): Promise<{ name: string; xml: XmlElement } | null> {
  return relatedPart(pptx.pkg, slide.rels, '/slideLayout');
}

export async function slideMaster(pptx: Pptx, slide: Slide): Promise<{ name: string; xml: XmlElement } | null> {
  const layout = await slideLayout(pptx, slide);
  if (!layout) return null;
  return relatedPart(pptx.pkg, await readRelationships(pptx.pkg, layout.name), '/slideMaster');
}

// --- shapes -------------------------------------------------------------------------------------------------------

const SHAPE_TAGS = ['p:sp', 'p:grpSp', 'p:graphicFrame', 'p:cxnSp', 'p:pic', 'p:contentPart'];

export function shapeTree(slideXml: XmlElement): XmlElement {
  const tree = path(slideXml, 'p:cSld', 'p:spTree');
  if (!tree) throw new MalformedInputError('slide has no p:cSld/p:spTree');
  return tree;
}

/** `slide.shapes` / `group.shapes`: shape elements among the tree's children. */
export function shapeElements(tree: XmlElement): XmlElement[] {
  return children(tree, ...SHAPE_TAGS);
}

/** The `p:nvPr` of any shape kind. */
function nvPr(shape: XmlElement): XmlElement | undefined {
  for (const c of children(shape)) if (c.name.startsWith('p:nv') && c.name.endsWith('Pr')) return child(c, 'p:nvPr');
  return undefined;
}

function placeholderInfo(shape: XmlElement): { type: string; idx: string } | null {
  const ph = child(nvPr(shape), 'p:ph');
  return ph ? { type: ph.attrs.type ?? 'obj', idx: ph.attrs.idx ?? '0' } : null;
}

function xfrm(shape: XmlElement): XmlElement | undefined {
  switch (shape.name) {
    case 'p:graphicFrame':
      return child(shape, 'p:xfrm');
    case 'p:grpSp':
      return path(shape, 'p:grpSpPr', 'a:xfrm');
    case 'p:contentPart':
      return undefined;
    default:
      return path(shape, 'p:spPr', 'a:xfrm');
  }
}

interface Geometry {
  left: number | null;
  top: number | null;
  width: number | null;
  height: number | null;
}

function ownGeometry(shape: XmlElement): Geometry {
  const x = xfrm(shape);
  const off = child(x, 'a:off');
  const ext = child(x, 'a:ext');
  const n = (v: string | undefined) => (v === undefined ? null : Number(v));
  return { left: n(off?.attrs.x), top: n(off?.attrs.y), width: n(ext?.attrs.cx), height: n(ext?.attrs.cy) };
}

const MASTER_TYPE: Record<string, string> = {
  body: 'body', chart: 'body', clipArt: 'body', ctrTitle: 'title', dgm: 'body', dt: 'dt', ftr: 'ftr',
  media: 'body', obj: 'body', pic: 'body', sldNum: 'sldNum', subTitle: 'body', tbl: 'body', title: 'title',
};

/** A shape on a slide with what the comparisons read. */
export interface Shape {
  el: XmlElement;
  geometry: Geometry;
  /** python-pptx: the object has `.text` (a p:sp, placeholder or not). */
  hasText: boolean;
}

/**
 * The shapes of a slide (top level), with placeholder geometry resolved through layout and master. Shapes inside
 * groups are built by `groupShapes` without inheritance, as python-pptx's GroupShapes does.
 */
export async function slideShapes(pptx: Pptx, slide: Slide): Promise<Shape[]> {
  const elements = shapeElements(shapeTree(slide.xml));
  let layoutTree: XmlElement | null | undefined;
  let masterTree: XmlElement | null | undefined;
  const out: Shape[] = [];
  for (const el of elements) {
    let geometry = ownGeometry(el);
    const ph = placeholderInfo(el);
    const inherits = ph && (el.name === 'p:sp' || el.name === 'p:pic');
    if (inherits && Object.values(geometry).some((v) => v === null)) {
      if (layoutTree === undefined) {
        const layout = await slideLayout(pptx, slide);
        layoutTree = layout ? shapeTree(layout.xml) : null;
        const master = await slideMaster(pptx, slide);
        masterTree = master ? shapeTree(master.xml) : null;
      }
      const layoutPh = layoutTree ? shapeElements(layoutTree).find((s) => placeholderInfo(s)?.idx === ph.idx) : undefined;
      const masterType = layoutPh ? MASTER_TYPE[placeholderInfo(layoutPh)!.type] : undefined;
      const masterPh =
        masterType && masterTree ? shapeElements(masterTree).find((s) => placeholderInfo(s)?.type === masterType) : undefined;
      const inherit = (key: keyof Geometry): number | null => {
        if (geometry[key] !== null) return geometry[key];
        if (!layoutPh) return null;
        const fromLayout = ownGeometry(layoutPh)[key];
        if (fromLayout !== null) return fromLayout;
        return masterPh ? ownGeometry(masterPh)[key] : null;
      };
      geometry = { left: inherit('left'), top: inherit('top'), width: inherit('width'), height: inherit('height') };
    }
    out.push({ el, geometry, hasText: el.name === 'p:sp' });
  }
  return out;
}

export function groupShapes(group: XmlElement): Shape[] {
  return shapeElements(group).map((el) => ({ el, geometry: ownGeometry(el), hasText: el.name === 'p:sp' }));
}

export const SHAPE_TYPE = { AUTO_SHAPE: 1, FREEFORM: 5, GROUP: 6, LINE: 9, PICTURE: 13, PLACEHOLDER: 14, MEDIA: 16, TEXT_BOX: 17, TABLE: 19 };

const GRAPHIC_TABLE = 'http://schemas.openxmlformats.org/drawingml/2006/table';
const GRAPHIC_CHART = 'http://schemas.openxmlformats.org/drawingml/2006/chart';
const GRAPHIC_OLE = 'http://schemas.openxmlformats.org/presentationml/2006/ole';

/**
 * `shape.shape_type` (MSO_SHAPE_TYPE values). `topLevel` tells whether python-pptx built a slide-placeholder object
 * (only then is a p:pic with p:ph a placeholder). Throws where python-pptx raises NotImplementedError.
 */
export function shapeType(shape: XmlElement, topLevel: boolean): number | null {
  switch (shape.name) {
    case 'p:sp': {
      if (placeholderInfo(shape)) return SHAPE_TYPE.PLACEHOLDER;
      if (path(shape, 'p:spPr', 'a:custGeom')) return SHAPE_TYPE.FREEFORM;
      const txBox = path(shape, 'p:nvSpPr', 'p:cNvSpPr')?.attrs.txBox;
      const isTextbox = txBox === '1' || txBox === 'true';
      if (path(shape, 'p:spPr', 'a:prstGeom') && !isTextbox) return SHAPE_TYPE.AUTO_SHAPE;
      if (isTextbox) return SHAPE_TYPE.TEXT_BOX;
      throw new MalformedInputError('python-pptx cannot tell the type of a p:sp without geometry (NotImplementedError)');
    }
    case 'p:pic':
      if (topLevel && placeholderInfo(shape)) return SHAPE_TYPE.PLACEHOLDER;
      return path(shape, 'p:nvPicPr', 'p:nvPr', 'a:videoFile') ? SHAPE_TYPE.MEDIA : SHAPE_TYPE.PICTURE;
    case 'p:graphicFrame': {
      const uri = path(shape, 'a:graphic', 'a:graphicData')?.attrs.uri;
      if (uri === GRAPHIC_CHART) return 3;
      if (uri === GRAPHIC_TABLE) return SHAPE_TYPE.TABLE;
      if (uri === GRAPHIC_OLE) return path(shape, 'a:graphic', 'a:graphicData', 'p:oleObj', 'p:embed') ? 7 : 10;
      return null;
    }
    case 'p:grpSp':
      return SHAPE_TYPE.GROUP;
    case 'p:cxnSp':
      return SHAPE_TYPE.LINE;
    default:
      throw new MalformedInputError(`python-pptx has no shape_type for ${shape.name} (NotImplementedError)`);
  }
}

// --- text ---------------------------------------------------------------------------------------------------------

/** `text_frame.paragraphs`: the txBody's a:p children; a missing txBody reads as one empty paragraph. */
export function textParagraphs(txBodyOwner: XmlElement, txBodyName = 'p:txBody'): XmlElement[] {
  const body = child(txBodyOwner, txBodyName);
  return body ? children(body, 'a:p') : [{ name: 'a:p', attrs: {}, children: [] }];
}

function tText(t: XmlElement | undefined): string {
  return t ? (leadingText(t) ?? '') : '';
}

/** `paragraph.text`: a:r and a:fld texts, a:br as "\v". */
export function paragraphText(p: XmlElement): string {
  let out = '';
  for (const c of children(p, 'a:r', 'a:br', 'a:fld')) out += c.name === 'a:br' ? '\v' : tText(child(c, 'a:t'));
  return out;
}

/** `shape.text` / `text_frame.text`. */
export function shapeText(sp: XmlElement): string {
  return textParagraphs(sp).map(paragraphText).join('\n');
}

export function paragraphRuns(p: XmlElement): XmlElement[] {
  return children(p, 'a:r');
}

export function runText(r: XmlElement): string {
  return tText(child(r, 'a:t'));
}

/** `paragraph.alignment` as the raw `algn` value, null when absent. */
export function paragraphAlignment(p: XmlElement): string | null {
  return child(p, 'a:pPr')?.attrs.algn ?? null;
}

/** `paragraph.level`: `a:pPr/@lvl`, 0 when absent. */
export function paragraphLevel(p: XmlElement): number {
  return Number(child(p, 'a:pPr')?.attrs.lvl ?? 0);
}

function xsdBoolean(value: string | undefined): boolean | null {
  if (value === undefined) return null;
  if (value === '1' || value === 'true') return true;
  if (value === '0' || value === 'false') return false;
  throw new MalformedInputError(`invalid boolean ${JSON.stringify(value)} in a:rPr`);
}

export interface RunFont {
  name: string | null;
  /** `a:rPr/@sz` in hundredths of a point */
  size: number | null;
  bold: boolean | null;
  italic: boolean | null;
  /** null (absent), false ("none"), true ("sng") or the other MSO_UNDERLINE value as written */
  underline: boolean | string | null;
  /** RRGGBB when the colour is `a:solidFill/a:srgbClr`; null when python-pptx has no `.rgb` for it */
  colorRgb: string | null;
  /** `a:rPr/@strike` or "noStrike" */
  strike: string;
  /** whether `a:rPr` carries a strike attribute at all (check_strikethrough) */
  hasStrikeAttribute: boolean;
}

export function runFont(r: XmlElement): RunFont {
  const rPr = child(r, 'a:rPr');
  const attrs = rPr?.attrs ?? {};
  const u = attrs.u;
  const srgb = path(rPr, 'a:solidFill', 'a:srgbClr')?.attrs.val;
  return {
    name: child(rPr, 'a:latin')?.attrs.typeface ?? null,
    size: attrs.sz === undefined ? null : Number(attrs.sz),
    bold: xsdBoolean(attrs.b),
    italic: xsdBoolean(attrs.i),
    underline: u === undefined ? null : u === 'none' ? false : u === 'sng' ? true : u,
    colorRgb: srgb === undefined ? null : srgb.toUpperCase(),
    strike: attrs.strike ?? 'noStrike',
    hasStrikeAttribute: attrs.strike !== undefined,
  };
}

/** A table graphicFrame's `a:tbl`, or undefined. */
export function tableOf(frame: XmlElement): XmlElement | undefined {
  return path(frame, 'a:graphic', 'a:graphicData', 'a:tbl');
}

export function tableShape(tbl: XmlElement): { rows: number; columns: number; cell(r: number, c: number): XmlElement } {
  const rows = children(tbl, 'a:tr');
  return {
    rows: rows.length,
    columns: children(child(tbl, 'a:tblGrid'), 'a:gridCol').length,
    cell(r, c) {
      const tc = children(rows[r], 'a:tc')[c];
      if (!tc) throw new MalformedInputError(`table cell (${r}, ${c}) does not exist`);
      return tc;
    },
  };
}

// --- slide-level properties -------------------------------------------------------------------------------------

/** `slide.notes_slide.notes_text_frame.text`: "" without a notes slide; throws when the notes slide has no body. */
export async function notesText(pptx: Pptx, slide: Slide): Promise<string> {
  const notes = await relatedPart(pptx.pkg, slide.rels, '/notesSlide');
  if (!notes) return '';
  const body = shapeElements(shapeTree(notes.xml)).find((s) => placeholderInfo(s)?.type === 'body');
  if (!body) throw new MalformedInputError(`${pptx.file}: notes of slide ${slide.index + 1} have no body placeholder (python-pptx returns None)`);
  return body.name === 'p:sp' ? shapeText(body) : '';
}

/** python-pptx `fill.type` of a background: 1 solid, 2 patterned, 3 gradient, 5 background (no fill), 6 picture. */
export interface BackgroundFill {
  type: number | null;
  /** the solid colour's srgbClr value, null when it is another colour kind */
  rgb: string | null;
  solidColorKind: string | null;
}

const FILL_TYPES: Record<string, number> = { 'a:solidFill': 1, 'a:pattFill': 2, 'a:gradFill': 3, 'a:noFill': 5, 'a:blipFill': 6, 'a:grpFill': 101 };

/** `slide.background.fill` (no p:bg/p:bgPr → python-pptx installs a noFill background: type 5). */
export function backgroundFill(slideXml: XmlElement): BackgroundFill {
  const bgPr = path(slideXml, 'p:cSld', 'p:bg', 'p:bgPr');
  if (!bgPr) return { type: 5, rgb: null, solidColorKind: null };
  const fill = children(bgPr).find((c) => c.name in FILL_TYPES);
  if (!fill) return { type: null, rgb: null, solidColorKind: null };
  if (fill.name !== 'a:solidFill') return { type: FILL_TYPES[fill.name], rgb: null, solidColorKind: null };
  const color = children(fill)[0];
  return { type: 1, rgb: color?.name === 'a:srgbClr' ? (color.attrs.val ?? '').toUpperCase() : null, solidColorKind: color?.name ?? null };
}

/** The image bytes a picture shape shows (`picture.image.blob`). */
export async function pictureBlob(pptx: Pptx, slide: Slide, pic: XmlElement): Promise<Buffer | null> {
  const embed = path(pic, 'p:blipFill', 'a:blip')?.attrs['r:embed'];
  const rel = slide.rels.find((r) => r.id === embed);
  if (!rel || rel.external) return null;
  const entry = pptx.pkg.zip.file(rel.target);
  return entry ? entry.async('nodebuffer') : null;
}
