// Writer metrics on documents written by real LibreOffice 7.4 (scripts/fixtures/docx-fixtures.py). Paragraph texts
// and float results come from fixtures/docx/expected.json, derived in python3 from the texts by construction and a
// plain LCS dynamic programme — not from this code.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { registerBuiltins } from '../../../../src/eval/builtins.ts';
import { docxParagraphTexts } from '../../../../src/eval/metrics/docx/compare-text.ts';
import { docxMetrics as m } from '../../../../src/eval/metrics/docx/index.ts';
import { odtParagraphTexts, openOdt } from '../../../../src/eval/formats/docx/odt.ts';
import { metrics } from '../../../../src/eval/registry.ts';

const dir = join(import.meta.dirname, '..', '..', '..', '..', 'fixtures', 'docx');
const f = (name: string) => join(dir, name);
const expected = JSON.parse(readFileSync(f('expected.json'), 'utf8'));

describe('reading documents', () => {
  it('gives python-docx 1.2 paragraph texts: tabs, line breaks and hyperlink text included', async () => {
    for (const [name, texts] of Object.entries(expected.docxParagraphs)) {
      expect(await docxParagraphTexts(f(`${name}.docx`)), name).toEqual(texts);
    }
  });

  it('drops tracked insertions and deletions (w:ins / w:del are not direct runs)', async () => {
    expect(await docxParagraphTexts(f('tracked.docx'))).toEqual([expected.trackedParagraph]);
  });

  it('reads .odt paragraphs as odfpy does in OSWorld: tabs, breaks, extra spaces and links vanish', async () => {
    for (const name of ['text-base', 'text-changed']) {
      expect(odtParagraphTexts(await openOdt(f(`${name}.odt`))), name).toEqual(expected.odtParagraphs[name]);
    }
  });

  it('names the file when it is not a document', async () => {
    await expect(docxParagraphTexts(f('expected.json'))).rejects.toThrow(/expected\.json is not a zip-based office document/);
  });
});

describe('compare_docx_files', () => {
  const cmp = (a: string, b: string, options = {}) => m.compare_docx_files(f(a), f(b), options);

  it('passes identical text and fails a changed word (default ignore_blanks)', async () => {
    expect(await cmp('text-base.docx', 'text-base.docx')).toBe(1);
    expect(await cmp('text-base.docx', 'text-changed.docx')).toBe(0);
  });

  it('ignore_blanks (default) ignores paragraph breaks and blank paragraphs; strict mode does not', async () => {
    expect(await cmp('text-base.docx', 'text-blanks.docx')).toBe(1);
    expect(await cmp('text-base.docx', 'text-blanks.docx', { ignore_blanks: false })).toBe(0);
  });

  it('delete_empty_lines drops blank paragraphs before a strict comparison', async () => {
    expect(await cmp('text-base.docx', 'text-blanks.docx', { ignore_blanks: false, delete_empty_lines: true })).toBe(1);
  });

  it('ignore_order sorts paragraphs; ignore_case lower-cases', async () => {
    expect(await cmp('text-base.docx', 'text-reordered.docx', { ignore_blanks: false })).toBe(0);
    expect(await cmp('text-base.docx', 'text-reordered.docx', { ignore_blanks: false, ignore_order: true })).toBe(1);
    expect(await cmp('text-base.docx', 'text-upper.docx')).toBe(0);
    expect(await cmp('text-base.docx', 'text-upper.docx', { ignore_case: true })).toBe(1);
  });

  it('content_only returns the fuzz ratio of the collapsed texts as a float', async () => {
    expect(await cmp('text-base.docx', 'text-changed.docx', { content_only: true })).toBeCloseTo(expected.contentOnlyBaseVsChanged, 12);
  });

  it('fuzzy_match returns the whole-text ratio, or the mean per-paragraph ratio without ignore_blanks', async () => {
    expect(await cmp('text-base.docx', 'text-changed.docx', { fuzzy_match: true })).toBeCloseTo(expected.fuzzyBlanksBaseVsChanged, 12);
    expect(await cmp('text-base.docx', 'text-changed.docx', { fuzzy_match: true, ignore_blanks: false })).toBeCloseTo(
      expected.fuzzyPerParagraphBaseVsChanged,
      12,
    );
    expect(await cmp('text-base.docx', 'text-changed.docx', { fuzzy_match: true, fuzzy_match_threshold: 0.9 })).toBe(1);
    expect(await cmp('text-base.docx', 'text-changed.docx', { fuzzy_match: true, fuzzy_match_threshold: 0.99 })).toBe(0);
  });

  it('compares .odt with .odt, and scores 0 for mixed or missing files', async () => {
    expect(await cmp('text-base.odt', 'text-base.odt')).toBe(1);
    expect(await cmp('text-base.odt', 'text-changed.odt', { content_only: true })).toBeCloseTo(expected.odtContentOnlyBaseVsChanged, 12);
    expect(await cmp('text-base.docx', 'text-base.odt')).toBe(0);
    expect(await m.compare_docx_files(null, f('text-base.docx'), {})).toBe(0);
  });
});

describe('other text metrics', () => {
  it('compare_docx_files_and_ignore_new_lines drops empty paragraphs', async () => {
    const metric = m.compare_docx_files_and_ignore_new_lines;
    expect(await metric(f('lines-gapped.docx'), f('lines-tight.docx'), { ignore_blanks: false })).toBe(1);
    expect(await metric(f('lines-other.docx'), f('lines-tight.docx'), { ignore_blanks: false })).toBe(0);
    expect(await metric(f('lines-other.docx'), f('lines-tight.docx'), {})).toBe(0);
  });

  it('compare_references rescales the mean reference similarity above the base', async () => {
    expect(await m.compare_references(f('refs-b.docx'), f('refs-a.docx'), {})).toBeCloseTo(expected.referencesScoreBase05, 12);
    expect(await m.compare_references(f('refs-b.docx'), f('refs-a.docx'), { reference_base_result: 0.6 })).toBeCloseTo(
      expected.referencesScoreBase06,
      12,
    );
    expect(await m.compare_references(f('refs-a.docx'), f('refs-a.docx'), {})).toBe(1);
    // no "References" heading in one document only → 0
    expect(await m.compare_references(f('text-base.docx'), f('refs-a.docx'), {})).toBe(0);
  });

  it('compare_unique_train_records checks lines against the initial file, ids against the gold', async () => {
    const files = [f('train-gold.docx'), f('train-initial.docx')];
    expect(await m.compare_unique_train_records(f('train-gold.docx'), files, {})).toBe(1);
    expect(await m.compare_unique_train_records(f('train-dup.docx'), files, {})).toBe(0);
    expect(await m.compare_unique_train_records(f('train-gold.docx'), [files[0]], {})).toBe(0);
  });

  it('fuzzy_place_math averages the best ratio of exactly three words', async () => {
    const rules = { expected: ['alpha', 'betta', 'gamma', 'delta'] };
    expect(await m.fuzzy_place_math(f('places.docx'), rules, {})).toBeCloseTo(expected.fuzzyPlaceMath, 12);
    expect(await m.fuzzy_place_math(f('text-base.docx'), rules, {})).toBe(0);
  });
});

describe('structure and formatting metrics', () => {
  const pair = async (name: string, a: string, b: unknown, options = {}) =>
    m[name](f(a), typeof b === 'string' ? f(b) : b, options);

  it('compare_docx_tables compares stripped cell texts over the grid (merged cells included)', async () => {
    expect(await pair('compare_docx_tables', 'tables-a.docx', 'tables-a.docx')).toBe(1);
    expect(await pair('compare_docx_tables', 'tables-a.docx', 'tables-b.docx')).toBe(0);
    expect(await pair('compare_docx_tables', 'tables-a.docx', 'text-base.docx')).toBe(0);
  });

  it('compare_docx_images compares decoded pixels', async () => {
    expect(await pair('compare_docx_images', 'images-a.docx', 'images-a.docx')).toBe(1);
    expect(await pair('compare_docx_images', 'images-a.docx', 'images-b.docx')).toBe(0);
    expect(await pair('compare_docx_images', 'images-a.docx', 'text-base.docx')).toBe(0);
  });

  it('compare_font_names needs every run to name the font itself', async () => {
    const rules = { font_name: 'Times New Roman' };
    expect(await pair('compare_font_names', 'fonts-times.docx', rules)).toBe(1);
    expect(await pair('compare_font_names', 'fonts-mixed.docx', rules)).toBe(0);
    // runs without w:rFonts (font from the style) fail, as python-docx returns None
    expect(await pair('compare_font_names', 'text-base.docx', rules)).toBe(0);
    await expect(pair('compare_font_names', 'fonts-times.docx', {})).rejects.toThrow(/compare_font_names: rules has no "font_name"/);
  });

  it('compare_line_spacing compares paragraph_format.line_spacing after the text', async () => {
    expect(await pair('compare_line_spacing', 'spacing-15.docx', 'spacing-15.docx')).toBe(1);
    expect(await pair('compare_line_spacing', 'spacing-15.docx', 'spacing-2.docx')).toBe(0);
  });

  it('compare_subscript_contains finds paired subscript runs', async () => {
    expect(await pair('compare_subscript_contains', 'subscript.docx', 'subscript.docx')).toBe(1);
    expect(await pair('compare_subscript_contains', 'no-subscript.docx', 'subscript.docx')).toBe(0);
  });

  it('has_page_numbers_in_footers reads the field result of the footer', async () => {
    expect(await pair('has_page_numbers_in_footers', 'footer-page.docx', undefined)).toBe(1);
    expect(await pair('has_page_numbers_in_footers', 'footer-text.docx', undefined)).toBe(0);
    expect(await pair('has_page_numbers_in_footers', 'text-base.docx', undefined)).toBe(0);
  });

  it('is_first_line_centered', async () => {
    expect(await pair('is_first_line_centered', 'text-base.docx', undefined)).toBe(1);
    expect(await pair('is_first_line_centered', 'text-left.docx', undefined)).toBe(0);
  });

  it('contains_page_break counts w:br type=page, optionally exactly', async () => {
    expect(await pair('contains_page_break', 'breaks-2.docx', { page_break_count: 2 })).toBe(1);
    expect(await pair('contains_page_break', 'breaks-2.docx', undefined)).toBe(1);
    expect(await pair('contains_page_break', 'breaks-2.docx', { page_break_count: 5 })).toBe(0);
    expect(await pair('contains_page_break', 'text-base.docx', undefined)).toBe(0);
  });

  it('check_tabstops scores 1 − mean position difference / text width', async () => {
    const options = { word_number_split_by_tabstop: 3, index: 0 };
    expect(await pair('check_tabstops', 'tabs-10.docx', 'tabs-10.docx', options)).toBe(1);
    expect(await pair('check_tabstops', 'tabs-12.docx', 'tabs-10.docx')).toBeCloseTo(expected.checkTabstops12vs10, 12);
    expect(await pair('check_tabstops', 'tabs-10.docx', 'tabs-10.docx', { word_number_split_by_tabstop: 2 })).toBe(0);
  });

  it('check_highlighted_words passes only without yellow highlighting (.odt)', async () => {
    expect(await pair('check_highlighted_words', 'highlight-off.odt', 'highlight-off.odt')).toBe(1);
    expect(await pair('check_highlighted_words', 'highlight-on.odt', 'highlight-off.odt')).toBe(0);
  });

  it('evaluate_strike_through_last_paragraph', async () => {
    expect(await pair('evaluate_strike_through_last_paragraph', 'strike-last.docx', 'strike-last.docx')).toBe(1);
    expect(await pair('evaluate_strike_through_last_paragraph', 'strike-none.docx', 'strike-last.docx')).toBe(0);
  });

  it('check_italic_font_size_14', async () => {
    expect(await pair('check_italic_font_size_14', 'italic-14.docx', 'italic-14.docx')).toBe(1);
    expect(await pair('check_italic_font_size_14', 'italic-12.docx', 'italic-14.docx')).toBe(0);
  });

  it('evaluate_colored_words_in_tables accepts near colours within ΔE 3.5 and fails a wrong colour', async () => {
    // colors-ok has "orange" in #fa0505, not pure red: it passes through the CIEDE2000 threshold
    expect(await pair('evaluate_colored_words_in_tables', 'colors-ok.docx', 'colors-ok.docx')).toBe(1);
    expect(await pair('evaluate_colored_words_in_tables', 'colors-bad.docx', 'colors-bad.docx')).toBe(0);
    expect(await pair('evaluate_colored_words_in_tables', 'colors-ok.docx', 'colors-ok.docx', { threshold: 0.5 })).toBe(0);
  });
});

describe('find_default_font', () => {
  const xcu = (font: string) => `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema">
<item oor:path="/org.openoffice.Office.Writer/DefaultFont"><prop oor:name="Standard" oor:op="fuse"><value>${font}</value></prop></item>
</oor:items>`;
  it('reads Writer/DefaultFont Standard', async () => {
    const dirPath = await mkdtemp(join(tmpdir(), 'xcu-'));
    await writeFile(join(dirPath, 'a.xcu'), xcu('Times New Roman'));
    await writeFile(join(dirPath, 'b.xcu'), xcu('Liberation Serif'));
    await writeFile(join(dirPath, 'bad.xcu'), 'not xml <');
    const rules = { font_name: 'Times New Roman' };
    expect(await m.find_default_font(join(dirPath, 'a.xcu'), rules, {})).toBe(1);
    expect(await m.find_default_font(join(dirPath, 'b.xcu'), rules, {})).toBe(0);
    expect(await m.find_default_font(join(dirPath, 'bad.xcu'), rules, {})).toBe(0);
    expect(await m.find_default_font(null, rules, {})).toBe(0);
  });
});

describe('registration', () => {
  it('registers every docx metric under its OSWorld name', () => {
    registerBuiltins();
    for (const name of Object.keys(m)) expect(metrics.get(name), name).toBeDefined();
    expect(Object.keys(m)).toHaveLength(19);
  });
});
