// sheet_print: compares the CSV exports that postconfig writes next to each workbook,
// "<xlsx path without extension>-<sheet name>.csv": lines stripped, trailing empty lines dropped.
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { pythonSplitlines, pythonStrip } from '../../../python/str.ts';

/** Python `os.path.splitext(path)[0]`. */
function withoutExtension(path: string): string {
  return path.slice(0, path.length - extname(path).length);
}

/** OSWorld `_safe_read_file`: UTF-8 (with or without BOM), else Latin-1; universal newlines, then splitlines(). */
function decodeLines(bytes: Uint8Array): string[] {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    text = Array.from(bytes, (b) => String.fromCharCode(b)).join('');
  }
  return pythonSplitlines(text);
}

/** The printed lines of a sheet, or null when its CSV export is missing. */
export async function readPrintedSheet(xlsxPath: string, sheetName: string): Promise<string[] | null> {
  const csv = `${withoutExtension(xlsxPath)}-${sheetName}.csv`;
  let bytes: Uint8Array;
  try {
    bytes = await readFile(csv);
  } catch {
    return null;
  }
  const lines = decodeLines(bytes).map((line) => pythonStrip(line));
  while (lines.length && lines[lines.length - 1].length === 0) lines.pop();
  return lines;
}

/** The first differing line (1-based) of two printed sheets, or undefined when they are equal. */
export function printedDifference(actual: string[], expected: string[]): { line: number; actual: string; expected: string } | undefined {
  const n = Math.max(actual.length, expected.length);
  for (let i = 0; i < n; i++) {
    if (actual[i] !== expected[i]) return { line: i + 1, actual: actual[i] ?? '(no line)', expected: expected[i] ?? '(no line)' };
  }
  return undefined;
}
