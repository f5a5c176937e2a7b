// Text comparisons of Writer documents (OSWorld docs.py): compare_docx_files and the metrics built on paragraph text.
import { flag, filePath } from '../arguments.ts';
import { pythonCollapseWhitespace, pythonSorted, pythonSplitWhitespace, pythonStrip } from '../../../python/str.ts';
import type { Options } from '../../registry.ts';
import { fuzzRatio } from '../text-similarity.ts';
import { bodyParagraphs, openDocx, paragraphText } from '../../formats/docx/document.ts';
import { odtParagraphTexts, openOdt } from '../../formats/docx/odt.ts';
import { MalformedInputError } from '../../../errors.ts';
import { MetricOptionsError } from '../../errors.ts';

/** The first difference found, for matcher messages. Paragraph numbers are 1-based, in the compared lists. */
interface TextDifference {
  reason: string;
  paragraph?: number;
  received?: string;
  expected?: string;
}

export interface Comparison {
  score: number;
  difference?: TextDifference;
}

/** Paragraph texts of a .docx as python-docx gives them (`[p.text for p in doc.paragraphs]`). */
export async function docxParagraphTexts(file: string): Promise<string[]> {
  const doc = await openDocx(file);
  return bodyParagraphs(doc).map(paragraphText);
}

async function loadParagraphs(file1: string, file2: string): Promise<[string[], string[]] | TextDifference> {
  const read = async (reader: (f: string) => Promise<string[]>): Promise<[string[], string[]] | TextDifference> => {
    try {
      return [await reader(file1), await reader(file2)];
    } catch (error) {
      return { reason: `cannot read the documents: ${(error as Error).message}` };
    }
  };
  if (file1.endsWith('.docx') && file2.endsWith('.docx')) return read(docxParagraphTexts);
  if (file1.endsWith('.odt') && file2.endsWith('.odt')) return read(async (f) => odtParagraphTexts(await openOdt(f)));
  return { reason: `unsupported or mismatched file types: ${file1} vs ${file2} (both .docx or both .odt)` };
}

function joinedText(paragraphs: string[]): string {
  return pythonStrip(pythonCollapseWhitespace(paragraphs.join('\n')));
}

/** The first paragraph (ignoring blank ones) whose whitespace-collapsed text differs, for a readable message. */
function firstCollapsedDifference(p1: string[], p2: string[], lower: boolean): TextDifference {
  const norm = (list: string[]) =>
    list
      .map((text, index) => ({ index, text: pythonStrip(pythonCollapseWhitespace(lower ? text.toLowerCase() : text)) }))
      .filter((entry) => entry.text !== '');
  const a = norm(p1);
  const b = norm(p2);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i]?.text !== b[i]?.text) {
      return {
        reason: 'texts differ (whitespace collapsed)',
        paragraph: (a[i] ?? b[i])!.index + 1,
        received: a[i]?.text ?? '(none)',
        expected: b[i]?.text ?? '(none)',
      };
    }
  }
  return { reason: 'texts differ (whitespace collapsed)' };
}

/**
 * compare_docx_files(file1, file2, ignore_blanks=True, ignore_case=False, ignore_order=False, content_only=False,
 * fuzzy_match=False, fuzzy_match_threshold=None, delete_empty_lines=False), returning the first difference too.
 * `file1` is the result, `file2` the expected document.
 */
export async function compareDocxFilesDetailed(result: unknown, expected: unknown, options: Options = {}): Promise<Comparison> {
  const file1 = filePath(result, 'compare_docx_files result');
  const file2 = filePath(expected, 'compare_docx_files expected');
  if (!file1 || !file2) return { score: 0, difference: { reason: 'a file is missing' } };
  const ignoreBlanks = flag(options, 'ignore_blanks', true);
  const ignoreCase = flag(options, 'ignore_case', false);
  const fuzzy = flag(options, 'fuzzy_match', false);
  const threshold = options.fuzzy_match_threshold;
  const loaded = await loadParagraphs(file1, file2);
  if (!Array.isArray(loaded)) return { score: 0, difference: loaded };
  let [p1, p2] = loaded;
  if (flag(options, 'ignore_order', false)) [p1, p2] = [pythonSorted(p1), pythonSorted(p2)];
  if (flag(options, 'delete_empty_lines', false)) {
    p1 = p1.filter((p) => pythonStrip(p) !== '');
    p2 = p2.filter((p) => pythonStrip(p) !== '');
  }
  const lower = (s: string) => (ignoreCase ? s.toLowerCase() : s);
  const ratioDifference = (score: number): Comparison =>
    score === 1 ? { score } : { score, difference: { ...firstCollapsedDifference(p1, p2, ignoreCase), reason: `similarity ${score}` } };

  if (flag(options, 'content_only', false)) {
    return ratioDifference(fuzzRatio(lower(joinedText(p1)), lower(joinedText(p2))) / 100);
  }
  if (ignoreBlanks) {
    const text1 = lower(joinedText(p1));
    const text2 = lower(joinedText(p2));
    if (fuzzy) {
      const similarity = fuzzRatio(text1, text2) / 100;
      if (threshold !== undefined && threshold !== null) return ratioDifference(similarity >= Number(threshold) ? 1 : 0);
      return ratioDifference(similarity);
    }
    return text1 === text2 ? { score: 1 } : { score: 0, difference: firstCollapsedDifference(p1, p2, ignoreCase) };
  }
  if (p1.length !== p2.length) {
    return { score: 0, difference: { reason: `paragraph counts differ: ${p1.length} vs ${p2.length} expected` } };
  }
  if (fuzzy) {
    if (!p1.length) return { score: 1 };
    let total = 0;
    let worst: TextDifference | undefined;
    p1.forEach((a, i) => {
      let similarity = fuzzRatio(lower(a), lower(p2[i])) / 100;
      if (threshold !== undefined && threshold !== null) similarity = similarity >= Number(threshold) ? 1 : 0;
      if (similarity < 1 && !worst) worst = { reason: `paragraph similarity ${similarity}`, paragraph: i + 1, received: a, expected: p2[i] };
      total += similarity;
    });
    const score = total / p1.length;
    return worst ? { score, difference: worst } : { score };
  }
  for (let i = 0; i < p1.length; i++) {
    if (lower(p1[i]) !== lower(p2[i])) {
      return { score: 0, difference: { reason: 'paragraphs differ', paragraph: i + 1, received: p1[i], expected: p2[i] } };
    }
  }
  return { score: 1 };
}

export async function compareDocxFiles(result: unknown, expected: unknown, options: Options = {}): Promise<number> {
  return (await compareDocxFilesDetailed(result, expected, options)).score;
}

/** compare_docx_files_and_ignore_new_lines(file1, file2, ignore_blanks=True): .docx only; drops paragraphs whose text is "". */
export async function compareDocxFilesAndIgnoreNewLines(result: unknown, expected: unknown, options: Options = {}): Promise<number> {
  const file1 = filePath(result, 'compare_docx_files_and_ignore_new_lines result');
  const file2 = filePath(expected, 'compare_docx_files_and_ignore_new_lines expected');
  if (!file1 || !file2) return 0;
  if (!(file1.endsWith('.docx') && file2.endsWith('.docx'))) return 0;
  let p1: string[];
  let p2: string[];
  try {
    p1 = (await docxParagraphTexts(file1)).filter((p) => p !== '');
    p2 = (await docxParagraphTexts(file2)).filter((p) => p !== '');
  } catch {
    return 0;
  }
  if (flag(options, 'ignore_blanks', true)) return joinedText(p1) === joinedText(p2) ? 1 : 0;
  if (p1.length !== p2.length) return 0;
  return p1.every((p, i) => p === p2[i]) ? 1 : 0;
}

/**
 * compare_references(file1, file2, reference_indicator="References", reference_base_result=0.5): the non-blank
 * paragraphs after the first paragraph equal to the indicator are compared pairwise with fuzz.ratio; the mean r is
 * rescaled to (r - base) / (1 - base) when r ≥ base + 0.01, else 0. Returns a float.
 */
export async function compareReferences(result: unknown, expected: unknown, options: Options = {}): Promise<number> {
  const file1 = filePath(result, 'compare_references result');
  const file2 = filePath(expected, 'compare_references expected');
  if (!file1 || !file2) return 0;
  const indicator = String(options.reference_indicator ?? 'References');
  const base = Number(options.reference_base_result ?? 0.5);
  if (!(file1.endsWith('.docx') && file2.endsWith('.docx'))) return 0;
  let p1: string[];
  let p2: string[];
  try {
    [p1, p2] = [await docxParagraphTexts(file1), await docxParagraphTexts(file2)];
  } catch {
    return 0;
  }
  const i1 = p1.indexOf(indicator);
  const i2 = p2.indexOf(indicator);
  if (i1 === -1 && i2 === -1) return 1;
  if (i1 === -1 || i2 === -1) return 0;
  const refs1 = p1.slice(i1 + 1).filter((p) => pythonStrip(p) !== '');
  const refs2 = p2.slice(i2 + 1).filter((p) => pythonStrip(p) !== '');
  if (refs1.length !== refs2.length) return 0;
  if (!refs1.length) throw new MalformedInputError('compare_references: no references after the indicator (division by zero in OSWorld)');
  let total = 0;
  for (const [i, r] of refs1.entries()) total += fuzzRatio(r, refs2[i]) / 100;
  const mean = total / refs1.length;
  return mean >= base + 0.01 ? (mean - base) / (1 - base) : 0;
}

/**
 * compare_unique_train_records(processed, [gold, initial]): lines are non-blank stripped paragraphs; a record is a
 * line with exactly 4 comma-separated fields and its train id is field 2. Processed lines must all come from the
 * initial file, ids must be unique, the id set must equal gold's and the line counts must match.
 */
export async function compareUniqueTrainRecords(result: unknown, expected: unknown): Promise<number> {
  const processed = filePath(result, 'compare_unique_train_records result');
  if (!processed || !Array.isArray(expected) || expected.length < 2) return 0;
  const gold = filePath(expected[0], 'compare_unique_train_records expected[0]');
  const initial = filePath(expected[1], 'compare_unique_train_records expected[1]');
  if (!gold || !initial) return 0;
  const read = async (file: string): Promise<{ lines: string[]; ids: string[] } | null> => {
    try {
      const lines = (await docxParagraphTexts(file)).map((line) => pythonStrip(line)).filter((l) => l !== '');
      const ids = lines.filter((l) => l.split(',').length === 4).map((l) => pythonStrip(l.split(',')[1]));
      return { lines, ids };
    } catch {
      return null;
    }
  };
  const p = await read(processed);
  const g = p && (await read(gold));
  const i = g && (await read(initial));
  if (!p || !g || !i) return 0;
  const initialLines = new Set(i.lines);
  if (!p.lines.every((l) => initialLines.has(l))) return 0;
  if (new Set(p.ids).size !== p.ids.length) return 0;
  const goldIds = new Set(g.ids);
  const processedIds = new Set(p.ids);
  if (goldIds.size !== processedIds.size || ![...goldIds].every((id) => processedIds.has(id))) return 0;
  return p.lines.length === g.lines.length ? 1 : 0;
}

/**
 * fuzzy_place_math(docx, {expected: [answers]}): the document's words (every paragraph split on whitespace) must be
 * exactly 3; each scores its best fuzz.ratio/100 against the answers; returns the mean (a float).
 */
export async function fuzzyPlaceMath(result: unknown, expected: unknown): Promise<number> {
  const file = filePath(result, 'fuzzy_place_math result');
  if (!file) return 0;
  const answers = (expected as { expected?: unknown } | undefined)?.expected;
  if (!Array.isArray(answers)) throw new MetricOptionsError('fuzzy_place_math: rules.expected must be a list of answers');
  const words = (await docxParagraphTexts(file)).flatMap((paragraph) => pythonSplitWhitespace(paragraph));
  const scores = words.map((word) => Math.max(0, ...answers.map((answer) => fuzzRatio(word, String(answer)) / 100)));
  if (scores.length !== 3) return 0;
  return scores.reduce((a, b) => a + b, 0) / 3;
}
