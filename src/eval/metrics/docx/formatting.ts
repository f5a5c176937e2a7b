// Formatting checks of Writer documents (OSWorld docs.py). Run formatting is read the way python-docx's `run.font`
// reads it: the run's own w:rPr only — a value inherited from a style is None, exactly as in OSWorld.
import { numberOption, requireField, rulesOf, filePath } from '../arguments.ts';
import { deltaE2000, hexToRgb, rgbToLab } from '../../formats/office/color.ts';
import type { Rgb } from '../../formats/office/color.ts';
import { pythonHasDigit, pythonSplitEachWhitespace, pythonStrip } from '../../../python/str.ts';
import type { Options } from '../../registry.ts';
import { compareDocxFiles } from './compare-text.ts';
import {
  bodyParagraphs,
  bodyTables,
  cellParagraphs,
  footerParagraphs,
  lineSpacing,
  openDocx,
  pageBreakCount,
  paragraphAlignment,
  paragraphRuns,
  paragraphText,
  readTable,
  runFont,
  runText,
  sectionGeometry,
  sections,
  tabStops,
} from '../../formats/docx/document.ts';
import type { Docx } from '../../formats/docx/document.ts';
import { hasYellowHighlightedSpan, openOdt } from '../../formats/docx/odt.ts';
import { MalformedInputError } from '../../../errors.ts';

/** OSWorld wraps `Document(path)` in try/except and returns 0; a missing path is 0 too. */
async function tryOpen(value: unknown, what: string): Promise<Docx | null> {
  const file = filePath(value, what);
  if (!file) return null;
  try {
    return await openDocx(file);
  } catch {
    return null;
  }
}

/** compare_font_names(docx, {font_name}): every run of every body paragraph has exactly that `w:rFonts/@w:ascii`. */
export async function compareFontNames(result: unknown, expected: unknown): Promise<number> {
  const fontName = requireField<string>(rulesOf(expected, 'compare_font_names'), 'font_name', 'compare_font_names');
  const doc = await tryOpen(result, 'compare_font_names result');
  if (!doc) return 0;
  for (const p of bodyParagraphs(doc)) for (const r of paragraphRuns(p)) if (runFont(r).name !== fontName) return 0;
  return 1;
}

/** compare_line_spacing(a, b): compare_docx_files(a, b) must pass, then equal paragraph counts and line spacings. */
export async function compareLineSpacing(result: unknown, expected: unknown): Promise<number> {
  if (!filePath(result, 'compare_line_spacing result') || !filePath(expected, 'compare_line_spacing expected')) return 0;
  if (!(await compareDocxFiles(result, expected))) return 0;
  const [d1, d2] = [await tryOpen(result, 'result'), await tryOpen(expected, 'expected')];
  if (!d1 || !d2) return 0;
  const [p1, p2] = [bodyParagraphs(d1), bodyParagraphs(d2)];
  if (p1.length !== p2.length) return 0;
  return p1.every((p, i) => lineSpacing(p) === lineSpacing(p2[i])) ? 1 : 0;
}

/** compare_subscript_contains(a, b): 1 as soon as paired runs (zip over paragraphs, then runs) are both subscript. */
export async function compareSubscriptContains(result: unknown, expected: unknown): Promise<number> {
  const [d1, d2] = [await tryOpen(result, 'result'), await tryOpen(expected, 'expected')];
  if (!d1 || !d2) return 0;
  const [p1, p2] = [bodyParagraphs(d1), bodyParagraphs(d2)];
  for (let i = 0; i < Math.min(p1.length, p2.length); i++) {
    const [r1, r2] = [paragraphRuns(p1[i]), paragraphRuns(p2[i])];
    for (let j = 0; j < Math.min(r1.length, r2.length); j++) {
      if (runFont(r1[j]).subscript && runFont(r2[j]).subscript) return 1;
    }
  }
  return 0;
}

/** has_page_numbers_in_footers(docx): every section's default footer has a digit in its first paragraph. */
export async function hasPageNumbersInFooters(result: unknown): Promise<number> {
  const doc = await tryOpen(result, 'has_page_numbers_in_footers result');
  if (!doc) return 0;
  const count = sections(doc).length;
  for (let i = 0; i < count; i++) {
    const paragraphs = await footerParagraphs(doc, i);
    const text = paragraphs.length ? paragraphText(paragraphs[0]) : '';
    if (!pythonHasDigit(text)) return 0;
  }
  return 1;
}

/** is_first_line_centered(docx): the first body paragraph has `w:jc` "center". */
export async function isFirstLineCentered(result: unknown): Promise<number> {
  const doc = await tryOpen(result, 'is_first_line_centered result');
  if (!doc) return 0;
  const first = bodyParagraphs(doc)[0];
  if (!first) throw new MalformedInputError('is_first_line_centered: the document has no paragraph');
  return paragraphAlignment(first) === 'center' ? 1 : 0;
}

/** contains_page_break(docx, {page_break_count?}): at least one page break, and exactly that many when given. */
export async function containsPageBreak(result: unknown, expected: unknown): Promise<number> {
  const doc = await tryOpen(result, 'contains_page_break result');
  if (!doc) return 0;
  const wanted = (expected as { page_break_count?: unknown } | null | undefined)?.page_break_count;
  const count = pageBreakCount(doc);
  if (wanted !== undefined && wanted !== null && count !== wanted) return 0;
  return count > 0 ? 1 : 0;
}

/**
 * check_tabstops(a, b, word_number_split_by_tabstop?, index=0): the non-blank paragraphs of both must pair up; each
 * pair must have the same tab stops (ignoring "clear" and left stops at 0) with the same alignments; the score is
 * 1 − mean over paragraphs of Σ|position difference| / text width of b's first section. Returns a float.
 */
export async function checkTabstops(result: unknown, expected: unknown, options: Options = {}): Promise<number> {
  const [d1, d2] = [await tryOpen(result, 'result'), await tryOpen(expected, 'expected')];
  if (!d1 || !d2) return 0;
  const p1 = bodyParagraphs(d1).filter((p) => pythonStrip(paragraphText(p)) !== '');
  const p2 = bodyParagraphs(d2).filter((p) => pythonStrip(paragraphText(p)) !== '');
  if (p1.length !== p2.length) return 0;
  const wordNumber = options.word_number_split_by_tabstop;
  if (wordNumber !== undefined && wordNumber !== null) {
    const index = numberOption(options, 'index', 0);
    for (const p of p1) {
      const splits = paragraphText(p).split('\t');
      const part = splits.at(index);
      if (part === undefined) throw new MalformedInputError(`check_tabstops: a paragraph has no tab-separated part ${index}`);
      const words = pythonSplitEachWhitespace(part).filter((w) => pythonStrip(w) !== '');
      if (words.length !== wordNumber) return 0;
    }
  }
  const first = sections(d2)[0];
  if (!first) throw new MalformedInputError('check_tabstops: the expected document has no section');
  const geometry = sectionGeometry(first);
  const width = geometry.pageWidth - geometry.leftMargin - geometry.rightMargin;
  const kept = (p: Parameters<typeof tabStops>[0]) =>
    tabStops(p).filter((t) => !(t.alignment === 'clear' || (t.alignment === 'left' && t.position === 0)));
  let minus = 0;
  for (let i = 0; i < p1.length; i++) {
    const [t1, t2] = [kept(p1[i]), kept(p2[i])];
    if (t1.length !== t2.length) return 0;
    let difference = 0;
    for (let j = 0; j < t1.length; j++) {
      if (t1[j].alignment !== t2[j].alignment) return 0;
      difference += Math.abs(t1[j].position - t2[j].position);
    }
    minus += difference / width;
  }
  if (!p1.length) throw new MalformedInputError('check_tabstops: no non-blank paragraphs (division by zero in OSWorld)');
  return 1 - minus / p1.length;
}

/** check_highlighted_words(odt1, odt2): same text (compare_docx_files), and no span of odt1 is yellow-highlighted. */
export async function checkHighlightedWords(result: unknown, expected: unknown): Promise<number> {
  const file1 = filePath(result, 'check_highlighted_words result');
  if (!file1 || !filePath(expected, 'check_highlighted_words expected')) return 0;
  if (!(await compareDocxFiles(result, expected))) return 0;
  return hasYellowHighlightedSpan(await openOdt(file1)) ? 0 : 1;
}

/** evaluate_strike_through_last_paragraph(a, b): same text, and every run of a's last paragraph is struck through. */
export async function evaluateStrikeThroughLastParagraph(result: unknown, expected: unknown): Promise<number> {
  if (!filePath(result, 'result') || !filePath(expected, 'expected')) return 0;
  if (!(await compareDocxFiles(result, expected))) return 0;
  const doc = await tryOpen(result, 'result');
  if (!doc) return 0;
  const last = bodyParagraphs(doc).at(-1);
  if (!last) throw new MalformedInputError('evaluate_strike_through_last_paragraph: the document has no paragraph');
  return paragraphRuns(last).every((r) => runFont(r).strike) ? 1 : 0;
}

/** check_italic_font_size_14(a, b): same text, and every italic run of a (body paragraphs) is 14 pt. */
export async function checkItalicFontSize14(result: unknown, expected: unknown): Promise<number> {
  if (!filePath(result, 'result') || !filePath(expected, 'expected')) return 0;
  if (!(await compareDocxFiles(result, expected))) return 0;
  const doc = await tryOpen(result, 'result');
  if (!doc) return 0;
  for (const p of bodyParagraphs(doc)) {
    for (const r of paragraphRuns(p)) {
      const font = runFont(r);
      if (font.italic && font.sizePt !== 14) return 0;
    }
  }
  return 1;
}

const RED: Rgb = [255, 0, 0];
const BLUE: Rgb = [0, 0, 255];

function colorDistance(rgb: Rgb, target: Rgb): number {
  const lab = (c: Rgb) => rgbToLab([c[0] / 255, c[1] / 255, c[2] / 255]);
  return deltaE2000(lab(rgb), lab(target));
}

/**
 * evaluate_colored_words_in_tables(a, b, threshold=3.5): same text, then in every table of a each non-empty run
 * starting with a vowel must be red and every other one blue, within CIEDE2000 ΔE ≤ threshold.
 */
export async function evaluateColoredWordsInTables(result: unknown, expected: unknown, options: Options = {}): Promise<number> {
  if (!filePath(result, 'result') || !filePath(expected, 'expected')) return 0;
  if (!(await compareDocxFiles(result, expected))) return 0;
  const doc = await tryOpen(result, 'result');
  if (!doc) return 0;
  const threshold = numberOption(options, 'threshold', 3.5);
  for (const tbl of bodyTables(doc)) {
    const table = readTable(tbl);
    for (let row = 0; row < table.rowCount; row++) {
      for (const cell of table.rowCells(row)) {
        for (const p of cellParagraphs(cell)) {
          for (const r of paragraphRuns(p)) {
            const word = runText(r);
            if (!word) continue;
            const color = runFont(r).colorRgb;
            if (!color) throw new MalformedInputError(`evaluate_colored_words_in_tables: the run "${word}" has no RGB colour (OSWorld fails on None)`);
            const vowel = 'aeiou'.includes(Array.from(word)[0].toLowerCase());
            if (colorDistance(hexToRgb(color), vowel ? RED : BLUE) > threshold) return 0;
          }
        }
      }
    }
  }
  return 1;
}
