// compare_pptx_files (OSWorld slides.py, upstream at 87df18ff): a strict slide-by-slide comparison with examine_*
// switches. The checks run in OSWorld's order and the first mismatch decides; the detailed variant says which.
import { flag, filePath } from '../arguments.ts';
import { pythonStrip } from '../../../python/str.ts';
import { children, descendants, leadingText } from '../../formats/office/xml.ts';
import type { XmlElement } from '../../formats/office/xml.ts';
import type { Options } from '../../registry.ts';
import {
  backgroundFill,
  groupShapes,
  notesText,
  openPptx,
  paragraphAlignment,
  paragraphLevel,
  paragraphRuns,
  paragraphText,
  runFont,
  runText,
  SHAPE_TYPE,
  shapeText,
  shapeType,
  slideMaster,
  slideShapes,
  tableOf,
  tableShape,
  textParagraphs,
} from '../../formats/pptx/presentation.ts';
import type { Pptx, Shape, Slide } from '../../formats/pptx/presentation.ts';
import { DeskbenchError, type ErrorCode, MalformedInputError } from '../../../errors.ts';

/** Where the first mismatch is (1-based numbers, as in OSWorld's debug log) and the two values. */
export interface PptxDifference {
  slide?: number;
  shape?: number;
  paragraph?: number;
  run?: number;
  property: string;
  received: unknown;
  expected: unknown;
}

export interface PptxComparison {
  score: number;
  difference?: PptxDifference;
}

const DEFAULTS_TRUE = [
  'examine_number_of_slides', 'examine_shape', 'examine_text', 'examine_indent', 'examine_font_name',
  'examine_font_size', 'examine_font_bold', 'examine_font_italic', 'examine_color_rgb', 'examine_font_underline',
  'examine_strike_through', 'examine_alignment', 'examine_run_count', 'examine_bullets', 'examine_background_color',
  'examine_note',
] as const;
const DEFAULTS_FALSE = [
  'examine_title_bottom_position', 'examine_table_bottom_position', 'examine_right_position', 'examine_top_position',
  'examine_shape_for_shift_size', 'examine_image_size', 'examine_modify_height', 'examine_shape_lenient_height',
] as const;
type Switch = (typeof DEFAULTS_TRUE)[number] | (typeof DEFAULTS_FALSE)[number];

class Mismatch extends DeskbenchError {
  override readonly code: ErrorCode = 'DESKBENCH_PPTX_MISMATCH';
  difference: PptxDifference;
  constructor(difference: PptxDifference) {
    super(difference.property);
    this.difference = difference;
  }
}

/**
 * OSWorld's is_approximately_equal: equal, or relative difference ≤ tolerance; a zero against a non-zero is unequal.
 * A missing position (None) equals only None; None against a number raises TypeError in Python, as here.
 */
function approx(a: number | null, b: number | null, tolerance: number): boolean {
  if (a === b) return true;
  if (a === 0 || b === 0) return false;
  if (a === null || b === null) throw new MalformedInputError('shape position is None on one side (TypeError in OSWorld)');
  return Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b)) <= tolerance;
}

/** Background colour as get_slide_background_color: solid → its rgb; "background" (inherit) → the master's solid rgb. */
async function backgroundColor(pptx: Pptx, slide: Slide): Promise<string | null> {
  const solidRgb = (fill: ReturnType<typeof backgroundFill>, where: string): string => {
    if (fill.rgb === null) throw new MalformedInputError(`${pptx.file}: ${where} background colour ${fill.solidColorKind} has no .rgb (AttributeError in python-pptx)`);
    return fill.rgb;
  };
  const fill = backgroundFill(slide.xml);
  if (fill.type === 1) return solidRgb(fill, `slide ${slide.index + 1}`);
  if (fill.type !== 5) return null;
  const master = await slideMaster(pptx, slide);
  if (!master) throw new MalformedInputError(`${pptx.file}: slide ${slide.index + 1} has no slide master`);
  const masterFill = backgroundFill(master.xml);
  return masterFill.type === 1 ? solidRgb(masterFill, 'master') : null;
}

/** get_all_text_shapes: every p:sp, recursing into groups, in document order. */
function allTextShapes(shapes: XmlElement[]): XmlElement[] {
  const out: XmlElement[] = [];
  for (const el of shapes) {
    if (el.name === 'p:sp') out.push(el);
    if (el.name === 'p:grpSp') out.push(...allTextShapes(groupShapes(el).map((s) => s.el)));
  }
  return out;
}

type Bullet = [string | null, string, string];

/**
 * _extract_bullets over the slide's whole XML (python-pptx `run.part.blob`): for every a:p with non-blank text,
 * (lvl, buChar, text). Null when OSWorld's extraction fails — an empty `<a:t/>` makes `"".join` meet None — in which
 * case the bullet check is skipped.
 */
function slideBullets(slideXml: XmlElement): Bullet[] | null {
  const out: Bullet[] = [];
  for (const p of descendants(slideXml, 'a:p')) {
    const texts = descendants(p, 'a:t').map(leadingText);
    if (texts.some((t) => t === null)) return null;
    const text = texts.join('');
    if (!pythonStrip(text)) continue;
    const pPr = children(p, 'a:pPr')[0];
    if (!pPr) out.push(['No Level', 'No Bullet', text]);
    else out.push([pPr.attrs.lvl ?? null, children(pPr, 'a:buChar')[0]?.attrs.char ?? 'No Bullet', text]);
  }
  return out;
}

function bulletsMatch(b1: Bullet[], b2: Bullet[]): boolean {
  if (b1.length !== b2.length) return false;
  return b1.every(([lvl1, char1, text1], i) => {
    const [lvl2, char2, text2] = b2[i];
    if (text1 !== text2 || char1 !== char2) return false;
    if (char1 !== 'No Bullet' || char2 !== 'No Bullet') return (lvl1 ?? '0') === (lvl2 ?? '0');
    return true;
  });
}

/** Runs compared in a paragraph pair: all runs, or only non-blank ones when both paragraphs are blank. */
function comparedRuns(p1: XmlElement, p2: XmlElement): [XmlElement[], XmlElement[]] {
  if (!pythonStrip(paragraphText(p1)) && !pythonStrip(paragraphText(p2))) {
    const nonBlank = (p: XmlElement) => paragraphRuns(p).filter((r) => pythonStrip(runText(r)) !== '');
    return [nonBlank(p1), nonBlank(p2)];
  }
  return [paragraphRuns(p1), paragraphRuns(p2)];
}

const bothFalsy = (a: boolean | null, b: boolean | null) => !a && !b;

/** OSWorld's underline rule: differing values fail when both are set, or when one is None and the other True. */
function underlineDiffers(u1: boolean | string | null, u2: boolean | string | null): boolean {
  if (u1 === u2) return false;
  if (u1 !== null && u2 !== null) return true;
  return u1 === true || u2 === true;
}

export async function comparePptxFilesDetailed(result: unknown, expected: unknown, options: Options = {}): Promise<PptxComparison> {
  const file1 = filePath(result, 'compare_pptx_files result');
  const file2 = filePath(expected, 'compare_pptx_files expected');
  if (!file1 || !file2) throw new MalformedInputError('compare_pptx_files: a file is missing (python-pptx cannot open None)');
  const [prs1, prs2] = [await openPptx(file1), await openPptx(file2)];
  const on = (name: Switch) => flag(options, name, (DEFAULTS_TRUE as readonly string[]).includes(name));
  const tolerance = Number(options.approximately_tolerance ?? 0.005);
  const eq = (a: number | null, b: number | null) => approx(a, b, tolerance);
  const sameBox = (s1: Shape, s2: Shape) =>
    eq(s1.geometry.left, s2.geometry.left) && eq(s1.geometry.top, s2.geometry.top) &&
    eq(s1.geometry.width, s2.geometry.width) && eq(s1.geometry.height, s2.geometry.height);

  if (prs1.slides.length !== prs2.slides.length && on('examine_number_of_slides')) {
    return { score: 0, difference: { property: 'number of slides', received: prs1.slides.length, expected: prs2.slides.length } };
  }
  try {
    for (let s = 0; s < Math.min(prs1.slides.length, prs2.slides.length); s++) {
      await compareSlides(prs1, prs2, s, { on, eq, sameBox });
    }
  } catch (error) {
    if (error instanceof Mismatch) return { score: 0, difference: error.difference };
    throw error;
  }
  return { score: 1 };
}

interface Ctx {
  on: (name: Switch) => boolean;
  eq: (a: number | null, b: number | null) => boolean;
  sameBox: (a: Shape, b: Shape) => boolean;
}

async function compareSlides(prs1: Pptx, prs2: Pptx, s: number, { on, eq, sameBox }: Ctx): Promise<void> {
  const [slide1, slide2] = [prs1.slides[s], prs2.slides[s]];
  const slideNo = s + 1;
  const fail = (property: string, received: unknown, expected: unknown, where: Partial<PptxDifference> = {}): never => {
    throw new Mismatch({ slide: slideNo, ...where, property, received, expected });
  };

  const [bg1, bg2] = [await backgroundColor(prs1, slide1), await backgroundColor(prs2, slide2)];
  if (bg1 !== bg2 && on('examine_background_color')) fail('background colour', bg1, bg2);
  const [notes1, notes2] = [pythonStrip(await notesText(prs1, slide1)), pythonStrip(await notesText(prs2, slide2))];
  if (notes1 !== notes2 && on('examine_note')) fail('notes', notes1, notes2);

  const [shapes1, shapes2] = [await slideShapes(prs1, slide1), await slideShapes(prs2, slide2)];
  const [textShapes1, textShapes2] = [allTextShapes(shapes1.map((x) => x.el)), allTextShapes(shapes2.map((x) => x.el))];
  if (shapes1.length !== shapes2.length) fail('number of shapes', shapes1.length, shapes2.length);

  let bullets: [Bullet[] | null, Bullet[] | null] | undefined; // the same for every run of the slide: computed once
  for (let i = 0; i < shapes1.length; i++) {
    const [sh1, sh2] = [shapes1[i], shapes2[i]];
    const at = { shape: i + 1 };
    const box = (sh: Shape) => sh.geometry;
    const text1 = sh1.hasText ? shapeText(sh1.el) : null;
    const text2 = sh2.hasText ? shapeText(sh2.el) : null;
    const type1 = () => shapeType(sh1.el, true);
    const type2 = () => shapeType(sh2.el, true);

    if (on('examine_title_bottom_position')) {
      if (text1 !== null && text2 !== null && text1 === text2) {
        if (text1 === 'Product Comparison' && (box(sh1).top! <= box(sh2).top! || box(sh1).top! < 3600000)) fail('title bottom position', box(sh1).top, box(sh2).top, at);
      } else if (!sameBox(sh1, sh2)) fail('position and size', box(sh1), box(sh2), at);
    }
    if (on('examine_table_bottom_position')) {
      if (slideNo === 3 && type1() === SHAPE_TYPE.TABLE && type2() === SHAPE_TYPE.TABLE) {
        if (box(sh1).top! <= box(sh2).top! || box(sh1).top! < 3600000) fail('table bottom position', box(sh1).top, box(sh2).top, at);
      } else if (!sameBox(sh1, sh2)) fail('position and size', box(sh1), box(sh2), at);
    }
    if (on('examine_right_position') && slideNo === 2 && text1 === null && text2 === null) {
      if (box(sh1).left! <= box(sh2).left! || box(sh1).left! < 4320000) fail('right position', box(sh1).left, box(sh2).left, at);
    }
    if (on('examine_top_position') && slideNo === 2 && type1() === SHAPE_TYPE.PICTURE && type2() === SHAPE_TYPE.PICTURE) {
      if (box(sh1).top! >= box(sh2).top! || box(sh1).top! > 1980000) fail('top position', box(sh1).top, box(sh2).top, at);
    }
    if (on('examine_shape_for_shift_size') && !sameBox(sh1, sh2)) {
      if (!(text1 !== null && text2 !== null && text1 === text2 && text1 === 'Elaborate on what you want to discuss.')) {
        fail('position and size', box(sh1), box(sh2), at);
      }
    }
    // Shapes without non-blank text on both sides (pictures, groups, tables, empty boxes) are exempt.
    const bothEmpty = !pythonStrip(text1 ?? '') && !pythonStrip(text2 ?? '');
    if (on('examine_shape') && !bothEmpty) {
      // examine_shape_lenient_height: upstream's code for it was not available; we read it as "heights may differ".
      const lenient = on('examine_shape_lenient_height');
      const same = lenient
        ? eq(box(sh1).left, box(sh2).left) && eq(box(sh1).top, box(sh2).top) && eq(box(sh1).width, box(sh2).width)
        : sameBox(sh1, sh2);
      if (!same) fail('position and size', box(sh1), box(sh2), at);
    }
    if (on('examine_image_size')) {
      if (type1() === SHAPE_TYPE.PICTURE && type2() === SHAPE_TYPE.PICTURE) {
        if (!eq(box(sh1).width, box(sh2).width) || !eq(box(sh1).height, box(sh2).height)) fail('image size', box(sh1), box(sh2), at);
      } else if (!sameBox(sh1, sh2)) fail('position and size', box(sh1), box(sh2), at);
    }
    if (on('examine_modify_height')) {
      if ((text1 === null && text2 === null) || (type1() === SHAPE_TYPE.FREEFORM && type2() === SHAPE_TYPE.FREEFORM)) {
        if (!eq(box(sh1).height, box(sh2).height)) fail('height', box(sh1).height, box(sh2).height, at);
      } else if (!sameBox(sh1, sh2)) fail('position and size', box(sh1), box(sh2), at);
    }

    if (type1() === SHAPE_TYPE.TABLE) {
      const tbl1 = tableOf(sh1.el)!;
      const tbl2 = tableOf(sh2.el);
      if (!tbl2) throw new MalformedInputError(`slide ${slideNo}, shape ${i + 1}: expected shape is not a table (python-pptx raises)`);
      const [t1, t2] = [tableShape(tbl1), tableShape(tbl2)];
      if (t1.rows !== t2.rows || t1.columns !== t2.columns) fail('table size', `${t1.rows}×${t1.columns}`, `${t2.rows}×${t2.columns}`, at);
      for (let r = 0; r < t1.rows; r++) {
        for (let c = 0; c < t1.columns; c++) {
          const [ps1, ps2] = [textParagraphs(t1.cell(r, c), 'a:txBody'), textParagraphs(t2.cell(r, c), 'a:txBody')];
          const cell = `cell (${r + 1}, ${c + 1})`;
          if (ps1.length !== ps2.length) fail(`${cell} paragraph count`, ps1.length, ps2.length, at);
          for (let k = 0; k < ps1.length; k++) {
            const [runs1, runs2] = comparedRuns(ps1[k], ps2[k]);
            const where = { ...at, paragraph: k + 1 };
            if (runs1.length !== runs2.length && on('examine_run_count')) fail(`${cell} run count`, runs1.length, runs2.length, where);
            for (let j = 0; j < Math.min(runs1.length, runs2.length); j++) {
              const [f1, f2] = [runFont(runs1[j]), runFont(runs2[j])];
              const w = { ...where, run: j + 1 };
              if (f1.colorRgb !== null && f2.colorRgb !== null && f1.colorRgb !== f2.colorRgb && on('examine_color_rgb')) fail(`${cell} font colour`, f1.colorRgb, f2.colorRgb, w);
              if (f1.bold !== f2.bold && !bothFalsy(f1.bold, f2.bold)) fail(`${cell} bold`, f1.bold, f2.bold, w);
              if (f1.italic !== f2.italic && !bothFalsy(f1.italic, f2.italic)) fail(`${cell} italic`, f1.italic, f2.italic, w);
              if (underlineDiffers(f1.underline, f2.underline)) fail(`${cell} underline`, f1.underline, f2.underline, w);
            }
          }
        }
      }
    }

    if (text1 !== null && text2 !== null) {
      if (pythonStrip(text1) !== pythonStrip(text2) && on('examine_text')) fail('text', pythonStrip(text1), pythonStrip(text2), at);
      const [ps1, ps2] = [textParagraphs(sh1.el), textParagraphs(sh2.el)];
      if (ps1.length !== ps2.length) fail('paragraph count', ps1.length, ps2.length, at);
      for (let k = 0; k < ps1.length; k++) {
        const [p1, p2] = [ps1[k], ps2[k]];
        const where = { ...at, paragraph: k + 1 };
        if (on('examine_alignment')) {
          const [a1, a2] = [paragraphAlignment(p1) ?? 'l', paragraphAlignment(p2) ?? 'l'];
          if (a1 !== a2) fail('alignment', a1, a2, where);
        }
        if (paragraphText(p1) !== paragraphText(p2) && on('examine_text')) fail('paragraph text', paragraphText(p1), paragraphText(p2), where);
        const [l1, l2] = [paragraphLevel(p1), paragraphLevel(p2)];
        if (l1 !== l2 && on('examine_indent') && !([0, 1].includes(l1) && [0, 1].includes(l2))) fail('indent level', l1, l2, where);
        const [runs1, runs2] = comparedRuns(p1, p2);
        if (runs1.length !== runs2.length && on('examine_run_count')) fail('run count', runs1.length, runs2.length, where);
        for (let j = 0; j < Math.min(runs1.length, runs2.length); j++) {
          const [f1, f2] = [runFont(runs1[j]), runFont(runs2[j])];
          const w = { ...where, run: j + 1 };
          if (f1.name !== f2.name && on('examine_font_name')) fail('font name', f1.name, f2.name, w);
          if (f1.size !== f2.size && on('examine_font_size')) fail('font size', f1.size, f2.size, w);
          if (f1.bold !== f2.bold && on('examine_font_bold') && !bothFalsy(f1.bold, f2.bold)) fail('bold', f1.bold, f2.bold, w);
          if (f1.italic !== f2.italic && on('examine_font_italic') && !bothFalsy(f1.italic, f2.italic)) fail('italic', f1.italic, f2.italic, w);
          if (f1.colorRgb !== null && f2.colorRgb !== null && f1.colorRgb !== f2.colorRgb && on('examine_color_rgb')) fail('font colour', f1.colorRgb, f2.colorRgb, w);
          if (on('examine_font_underline') && underlineDiffers(f1.underline, f2.underline)) fail('underline', f1.underline, f2.underline, w);
          if (f1.strike !== f2.strike && on('examine_strike_through')) fail('strike-through', f1.strike, f2.strike, w);
          if (on('examine_bullets')) {
            bullets ??= [slideBullets(slide1.xml), slideBullets(slide2.xml)];
            const [b1, b2] = bullets;
            if (b1 && b2 && !bulletsMatch(b1, b2)) fail('bullets', b1, b2, w);
          }
        }
      }
    }
  }

  // Text shapes including those inside groups: text, paragraph count and alignment (only with examine_alignment).
  if (on('examine_alignment') && textShapes1.length === textShapes2.length) {
    for (let i = 0; i < textShapes1.length; i++) {
      const [t1, t2] = [textShapes1[i], textShapes2[i]];
      const at = { shape: i + 1 };
      if (pythonStrip(shapeText(t1)) !== pythonStrip(shapeText(t2)) && on('examine_text')) fail('text (text shapes incl. groups)', pythonStrip(shapeText(t1)), pythonStrip(shapeText(t2)), at);
      const [ps1, ps2] = [textParagraphs(t1), textParagraphs(t2)];
      if (ps1.length !== ps2.length) fail('paragraph count (text shapes incl. groups)', ps1.length, ps2.length, at);
      for (let k = 0; k < ps1.length; k++) {
        const [a1, a2] = [paragraphAlignment(ps1[k]) ?? 'l', paragraphAlignment(ps2[k]) ?? 'l'];
        if (a1 !== a2) fail('alignment (text shapes incl. groups)', a1, a2, { ...at, paragraph: k + 1 });
      }
    }
  } else if (textShapes1.length !== textShapes2.length) {
    fail('number of text shapes (incl. groups)', textShapes1.length, textShapes2.length);
  }
}

export async function comparePptxFiles(result: unknown, expected: unknown, options: Options = {}): Promise<number> {
  return (await comparePptxFilesDetailed(result, expected, options)).score;
}
