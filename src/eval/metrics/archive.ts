// Archives and e-books (vscode.py's compare_zip_files, chrome.py's compare_archive, others.py's compare_epub): unpack,
// then compare member by member.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, normalize, sep } from 'node:path';
import { gunzipSync } from 'node:zlib';
import JSZip from 'jszip';
import { metrics } from '../registry.ts';
import type { Metric, Options } from '../registry.ts';
import { sequenceMatcherRatio } from './text-similarity.ts';
import { compareCsv } from './data.ts';
import { htmlRoot, parseHtml, prettyPrintHtml } from '../formats/html-tree.ts';
import { pdfText } from '../formats/pdf.ts';
import { decodePythonText } from '../../python/io.ts';
import { pythonFalsy } from '../../python/equality.ts';
import { pythonSplitlines } from '../../python/str.ts';
import { compareTextFile } from './text.ts';
import { MalformedInputError } from '../../errors.ts';
import { MetricOptionsError } from '../errors.ts';

/**
 * compare_zip_files: the two archives list the same names; PDFs must have text similarity ≥ 0.95 (difflib ratio over
 * the extracted text; OSWorld extracts with PyPDF2, here MuPDF as the pdf metrics, so whitespace may differ slightly), every other
 * member must be byte-identical.
 */
export async function compareZipFiles(result: unknown, expected: unknown): Promise<number> {
  if (pythonFalsy(result)) return 0;
  const a = await JSZip.loadAsync(readFileSync(String(result)));
  const b = await JSZip.loadAsync(readFileSync(String(expected)));
  const namesA = new Set(Object.keys(a.files));
  const namesB = new Set(Object.keys(b.files));
  if (namesA.size !== namesB.size || [...namesA].some((n) => !namesB.has(n))) return 0;
  for (const name of namesA) {
    const x = await a.files[name].async('uint8array');
    const y = await b.files[name].async('uint8array');
    if (name.toLowerCase().endsWith('.pdf')) {
      if (sequenceMatcherRatio(await pdfText(x), await pdfText(y)) < 0.95) return 0;
    } else if (!Buffer.from(x).equals(Buffer.from(y))) return 0;
  }
  return 1;
}

/** Writes every member under `dest`, refusing paths that leave it (as shutil.unpack_archive filters them). */
function safeJoin(dest: string, member: string): string | undefined {
  const path = normalize(join(dest, member));
  return path === dest || path.startsWith(dest + sep) ? path : undefined;
}

/** `shutil.unpack_archive`: .zip, .tar, .tar.gz/.tgz. */
async function unpackArchive(archive: string, dest: string): Promise<void> {
  const bytes = readFileSync(archive);
  const lower = archive.toLowerCase();
  if (lower.endsWith('.zip')) {
    const zip = await JSZip.loadAsync(bytes);
    for (const entry of Object.values(zip.files)) {
      const path = safeJoin(dest, entry.name);
      if (!path) continue;
      if (entry.dir) mkdirSync(path, { recursive: true });
      else {
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, await entry.async('uint8array'));
      }
    }
    return;
  }
  if (lower.endsWith('.tar.gz') || lower.endsWith('.tgz')) return untar(gunzipSync(bytes), dest);
  if (lower.endsWith('.tar')) return untar(bytes, dest);
  throw new MalformedInputError(`compare_archive: unsupported archive format for ${archive} (expected .zip, .tar, .tar.gz or .tgz)`);
}

/** A ustar reader with GNU long names (`L`) and pax `path` records, enough for tar/GNU tar output. */
function untar(tar: Uint8Array, dest: string): void {
  const text = (from: number, length: number) => {
    const raw = Buffer.from(tar.subarray(from, from + length));
    const end = raw.indexOf(0);
    return raw.subarray(0, end < 0 ? length : end).toString('utf8');
  };
  let offset = 0;
  let longName: string | undefined;
  while (offset + 512 <= tar.length) {
    if (tar.subarray(offset, offset + 512).every((b) => b === 0)) break;
    const size = Number.parseInt(text(offset + 124, 12).trim() || '0', 8);
    const type = String.fromCharCode(tar[offset + 156] || 48);
    const prefix = text(offset + 345, 155);
    const name = longName ?? (prefix ? `${prefix}/${text(offset, 100)}` : text(offset, 100));
    longName = undefined;
    const body = tar.subarray(offset + 512, offset + 512 + size);
    offset += 512 + Math.ceil(size / 512) * 512;
    if (type === 'L') {
      longName = Buffer.from(body).toString('utf8').replace(/\0+$/, '');
      continue;
    }
    if (type === 'x') {
      const path = /\d+ path=([^\n]*)\n/.exec(Buffer.from(body).toString('utf8'));
      if (path) longName = path[1];
      continue;
    }
    if (type === 'g') continue;
    const target = safeJoin(dest, name);
    if (!target) continue;
    if (type === '5') mkdirSync(target, { recursive: true });
    else if (type === '0' || type === '\0' || type === '7') {
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, body);
    }
  }
}

const BY_FILE_TYPE: Record<string, string> = {
  text: 'compare_text_file',
  pdf: 'compare_pdfs',
  docx: 'compare_docx_files',
  ppt: 'compare_pptx_files',
  image: 'compare_images',
  csv: 'compare_csv',
  table: 'compare_table',
  audio: 'compare_audios',
  video: 'compare_videos',
};

function compareFunction(fileType: string): Metric {
  if (fileType === 'text') return compareTextFile;
  if (fileType === 'csv') return compareCsv;
  const name = BY_FILE_TYPE[fileType];
  if (!name) throw new MetricOptionsError(`compare_archive: not support file type: ${fileType}`);
  const metric = metrics.get(name);
  if (!metric) throw new MetricOptionsError(`compare_archive: metric ${name} (for file_type ${fileType}) is not registered`);
  return metric;
}

/**
 * compare_archive(pred, gold, file_type='text', file_path='', **kw): unpacks both, requires the same sorted listing of
 * `file_path` inside them, then averages the per-file metric for `file_type` (called with the remaining options) over
 * the pairs. An empty listing divides by zero in OSWorld; here it throws too (score 0).
 */
export async function compareArchive(result: unknown, expected: unknown, options: Options = {}): Promise<number> {
  if (pythonFalsy(result)) return 0;
  const { file_path: filePath = '', file_type: fileType = 'text', ...rest } = options;
  const work = mkdtempSync(join(tmpdir(), 'deskbench-archive-'));
  try {
    const predDir = join(work, 'pred');
    const goldDir = join(work, 'gold');
    mkdirSync(predDir);
    mkdirSync(goldDir);
    await unpackArchive(String(result), predDir);
    await unpackArchive(String(expected), goldDir);
    const sorted = (dir: string) => readdirSync(join(dir, String(filePath))).sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
    const predFiles = sorted(predDir);
    const goldFiles = sorted(goldDir);
    if (predFiles.length !== goldFiles.length || predFiles.some((f, i) => f !== goldFiles[i])) return 0;
    const compare = compareFunction(String(fileType));
    if (predFiles.length === 0) throw new MalformedInputError('compare_archive: no files to compare (division by zero in OSWorld)');
    let score = 0;
    for (let i = 0; i < predFiles.length; i++) {
      score += Number(await compare(join(predDir, String(filePath), predFiles[i]), join(goldDir, String(filePath), goldFiles[i]), rest));
    }
    return score / predFiles.length;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * process_epub: toc.ncx without its navPoint lines, content.opf without dc:identifier lines (both only at the archive
 * root), and every `.html` member re-serialised by lxml.html's pretty printer after removing all CR/LF. Returned as
 * (sorted name, lines) pairs. An `.html` member inside a folder makes OSWorld's `open()` fail (the folder is never
 * created), which propagates: so it throws here. A file that is not a zip gives no parts.
 */
async function epubParts(path: string): Promise<[string, string[]][]> {
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(readFileSync(path));
  } catch {
    return [];
  }
  const parts: [string, string[]][] = [];
  const names = Object.keys(zip.files);
  const filtered = async (name: string, drop: string) => {
    const text = decodePythonText(await zip.files[name].async('uint8array'));
    // Lines as Python writes them back (l + "\n") and reads them again with splitlines().
    const lines = pythonSplitlines(text).filter((l) => !l.includes(drop));
    parts.push([name, pythonSplitlines(lines.map((l) => `${l}\n`).join(''))]);
  };
  if (names.includes('toc.ncx')) await filtered('toc.ncx', 'navPoint');
  if (names.includes('content.opf')) await filtered('content.opf', 'dc:identifier');
  for (const name of names) {
    if (!name.endsWith('.html')) continue;
    if (name.includes('/')) throw new MalformedInputError(`compare_epub: ${name} is in a folder; OSWorld cannot write it (FileNotFoundError)`);
    const source = decodePythonText(await zip.files[name].async('uint8array')).replace(/[\r\n]/g, '');
    parts.push([name, pythonSplitlines(prettyPrintHtml(htmlRoot(parseHtml(source))))]);
  }
  return parts.sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
}

/**
 * compare_epub: the mean of diff_text_file (difflib line ratio) over the zipped, sorted processed parts of both books,
 * divided by the result's part count (a float).
 */
export async function compareEpub(result: unknown, expected: unknown): Promise<number> {
  if (result === null || result === undefined) return 0;
  const a = await epubParts(String(result));
  const b = await epubParts(String(expected));
  let metric = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) metric += sequenceMatcherRatio(a[i][1], b[i][1]);
  return a.length > 0 ? metric / a.length : metric;
}

export const archiveMetrics: Record<string, Metric> = {
  compare_zip_files: compareZipFiles,
  compare_archive: compareArchive,
  compare_epub: compareEpub,
};
