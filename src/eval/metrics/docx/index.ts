// Writer (docx/odt) metrics under OSWorld's names (desktop_env/evaluators/metrics/docs.py, fuzzy_place_math from
// general.py). Documents are read as python-docx 1.2.0 / odfpy read them: see ../../formats/docx/.
import type { Metric } from '../../registry.ts';
import {
  compareDocxFiles,
  compareDocxFilesAndIgnoreNewLines,
  compareReferences,
  compareUniqueTrainRecords,
  fuzzyPlaceMath,
} from './compare-text.ts';
import { findDefaultFont } from './default-font.ts';
import {
  checkHighlightedWords,
  checkItalicFontSize14,
  checkTabstops,
  compareFontNames,
  compareLineSpacing,
  compareSubscriptContains,
  containsPageBreak,
  evaluateColoredWordsInTables,
  evaluateStrikeThroughLastParagraph,
  hasPageNumbersInFooters,
  isFirstLineCentered,
} from './formatting.ts';
import { compareDocxImages, compareDocxTables } from './structure.ts';

export const docxMetrics: Record<string, Metric> = {
  compare_docx_files: compareDocxFiles,
  compare_docx_tables: compareDocxTables,
  compare_docx_images: compareDocxImages,
  compare_font_names: compareFontNames,
  compare_line_spacing: compareLineSpacing,
  compare_subscript_contains: compareSubscriptContains,
  has_page_numbers_in_footers: hasPageNumbersInFooters,
  is_first_line_centered: isFirstLineCentered,
  contains_page_break: containsPageBreak,
  check_tabstops: checkTabstops,
  find_default_font: findDefaultFont,
  check_highlighted_words: checkHighlightedWords,
  evaluate_strike_through_last_paragraph: evaluateStrikeThroughLastParagraph,
  check_italic_font_size_14: checkItalicFontSize14,
  evaluate_colored_words_in_tables: evaluateColoredWordsInTables,
  compare_docx_files_and_ignore_new_lines: compareDocxFilesAndIgnoreNewLines,
  compare_references: compareReferences,
  compare_unique_train_records: compareUniqueTrainRecords,
  fuzzy_place_math: fuzzyPlaceMath,
};
