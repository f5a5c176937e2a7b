// Loading an .xlsx for the table metrics: the zip, the sheet list, relationships, shared strings and the raw
// worksheet parts. Everything is read from the package XML (jszip + ../xml-dom.ts), because OSWorld's metrics see
// the file through openpyxl and lxml, and exceljs normalises away what they look at (types, ranges, charts, pivots).
import { readFile } from 'node:fs/promises';
import { posix } from 'node:path';
import JSZip from 'jszip';
import { child, children, decodeEntities, parseXml, type XmlElement } from './xml.ts';
import { readStylesheet, type Stylesheet } from './stylesheet.ts';
import { scanWorksheet, type Worksheet } from './sheet-xml.ts';
import { MalformedInputError } from '../../../errors.ts';
import { MetricOptionsError } from '../../errors.ts';

export interface SheetEntry {
  name: string;
  sheetId: string;
  /** Package path of the sheet part, from the workbook relationships (how openpyxl finds it). */
  path: string | undefined;
  isWorksheet: boolean;
}

export interface Relationship {
  id: string;
  type: string;
  /** Absolute package path, or the raw target for external links. */
  target: string;
  external: boolean;
}

export class Workbook {
  readonly file: string;
  readonly sheets: SheetEntry[];
  readonly workbookXml: XmlElement;
  private readonly zip: JSZip;
  private readonly texts = new Map<string, Promise<string | undefined>>();
  private readonly worksheets = new Map<string, Promise<Worksheet | undefined>>();
  private sharedStringsCache?: Promise<{ openpyxl: string[]; osworld: string[] }>;
  private stylesCache?: Promise<Stylesheet>;

  private constructor(file: string, zip: JSZip, workbookXml: XmlElement, sheets: SheetEntry[]) {
    this.file = file;
    this.zip = zip;
    this.workbookXml = workbookXml;
    this.sheets = sheets;
  }

  static async open(file: string): Promise<Workbook> {
    const data = await readFile(file);
    let zip: JSZip;
    try {
      zip = await JSZip.loadAsync(data);
    } catch (error) {
      throw new MalformedInputError(`${file}: not an xlsx (zip) file: ${(error as Error).message}`);
    }
    const xml = await zip.file('xl/workbook.xml')?.async('string');
    if (xml === undefined) throw new MalformedInputError(`${file}: no xl/workbook.xml in the package`);
    const workbookXml = parseXml(xml, `${file}:xl/workbook.xml`);
    const book = new Workbook(file, zip, workbookXml, []);
    const rels = await book.relationships('xl/workbook.xml');
    for (const sheet of children(child(workbookXml, 'sheets'), 'sheet')) {
      const rel = rels.get(sheet.attrs.id ?? '');
      book.sheets.push({
        name: sheet.attrs.name ?? '',
        sheetId: sheet.attrs.sheetId ?? '',
        path: rel?.target,
        isWorksheet: !rel || rel.type.endsWith('/worksheet'),
      });
    }
    return book;
  }

  /** Worksheet names in workbook order (pandas' `ExcelFile.sheet_names`; chartsheets are not included). */
  get sheetNames(): string[] {
    return this.sheets.filter((s) => s.isWorksheet).map((s) => s.name);
  }

  /** The text of a package part, or undefined when it is absent. */
  text(path: string): Promise<string | undefined> {
    let text = this.texts.get(path);
    if (!text) {
      text = this.zip.file(path)?.async('string') ?? Promise.resolve(undefined);
      this.texts.set(path, text);
    }
    return text;
  }

  async xml(path: string): Promise<XmlElement | undefined> {
    const text = await this.text(path);
    return text === undefined ? undefined : parseXml(text, `${this.file}:${path}`);
  }

  /** The relationships of a part (`xl/_rels/workbook.xml.rels` for `xl/workbook.xml`), keyed by id. */
  async relationships(partPath: string): Promise<Map<string, Relationship>> {
    const dir = posix.dirname(partPath);
    const relsXml = await this.xml(`${dir}/_rels/${posix.basename(partPath)}.rels`);
    const rels = new Map<string, Relationship>();
    for (const rel of children(relsXml, 'Relationship')) {
      const external = rel.attrs.TargetMode === 'External';
      const target = rel.attrs.Target ?? '';
      const resolved = external ? target : target.startsWith('/') ? target.slice(1) : posix.normalize(posix.join(dir, target));
      rels.set(rel.attrs.Id ?? '', { id: rel.attrs.Id ?? '', type: rel.attrs.Type ?? '', target: resolved, external });
    }
    return rels;
  }

  /**
   * Shared strings two ways: as openpyxl reads them (plain and rich-text runs, without phonetic runs) and as OSWorld's
   * `read_cell_value` does (every `<t>` under the `<si>`, lxml selector `oo|t`).
   */
  sharedStrings(): Promise<{ openpyxl: string[]; osworld: string[] }> {
    this.sharedStringsCache ??= this.text('xl/sharedStrings.xml').then((xml) => {
      const openpyxl: string[] = [];
      const osworld: string[] = [];
      if (xml === undefined) return { openpyxl, osworld };
      for (const match of xml.matchAll(/<(?:\w+:)?si\b[^>]*?(?:\/>|>([\s\S]*?)<\/(?:\w+:)?si>)/g)) {
        const body = match[1] ?? '';
        osworld.push(joinTexts(body));
        openpyxl.push(joinTexts(body.replace(/<(?:\w+:)?rPh\b[\s\S]*?<\/(?:\w+:)?rPh>/g, '')));
      }
      return { openpyxl, osworld };
    });
    return this.sharedStringsCache;
  }

  styles(): Promise<Stylesheet> {
    this.stylesCache ??= this.xml('xl/styles.xml').then((xml) => readStylesheet(xml));
    return this.stylesCache;
  }

  /** The worksheet as openpyxl finds it (through the workbook relationships); undefined for an unknown name. */
  worksheet(name: string): Promise<Worksheet | undefined> {
    const entry = this.sheets.find((s) => s.name === name && s.isWorksheet);
    return entry?.path ? this.worksheetAt(entry.path) : Promise.resolve(undefined);
  }

  /**
   * The worksheet as OSWorld's raw-XML helpers find it: `xl/worksheets/sheet{sheetId}.xml`, which is the same part
   * for files LibreOffice writes but not always for files whose sheets were reordered.
   */
  worksheetBySheetId(name: string): Promise<Worksheet | undefined> {
    const entry = this.sheets.find((s) => s.name === name);
    return entry ? this.worksheetAt(`xl/worksheets/sheet${entry.sheetId}.xml`) : Promise.resolve(undefined);
  }

  private worksheetAt(path: string): Promise<Worksheet | undefined> {
    let sheet = this.worksheets.get(path);
    if (!sheet) {
      sheet = this.text(path).then((xml) => (xml === undefined ? undefined : scanWorksheet(xml, path, `${this.file}:${path}`)));
      this.worksheets.set(path, sheet);
    }
    return sheet;
  }
}

function joinTexts(body: string): string {
  let text = '';
  for (const t of body.matchAll(/<(?:\w+:)?t\b[^>]*?(?:\/>|>([\s\S]*?)<\/(?:\w+:)?t>)/g)) text += decodeEntities(t[1] ?? '');
  return text;
}

/** Opens a workbook, or returns null when the file is missing or is not a readable xlsx (OSWorld scores 0 then). */
export async function tryOpenWorkbook(file: unknown): Promise<Workbook | null> {
  if (typeof file !== 'string' || file === '') return null;
  try {
    return await Workbook.open(file);
  } catch {
    return null;
  }
}

/** Which book and sheet a rule's sheet reference names: an int or `RI<n>`/`RN<name>`/`EI<n>`/`EN<name>`. */
export interface SheetRef {
  book: 'result' | 'expected';
  /** The sheet name ("" when an index is out of range, as OSWorld does). */
  name: string;
}

export function parseSheetRef(ref: unknown, result: Workbook, expected: Workbook | null): SheetRef {
  if (typeof ref === 'number' && Number.isInteger(ref)) {
    const names = result.sheetNames;
    return { book: 'result', name: names[ref < 0 ? names.length + ref : ref] ?? '' };
  }
  if (typeof ref !== 'string' || !/^(RI|RN|EI|EN)/.test(ref)) {
    throw new MetricOptionsError(`sheet reference ${JSON.stringify(ref)}: expected an int or a string starting with RI, RN, EI or EN`);
  }
  const book = ref[0] === 'R' ? 'result' : 'expected';
  if (book === 'expected' && !expected) throw new MetricOptionsError(`sheet reference "${ref}" names the expected workbook, but the task has none`);
  const names = (book === 'result' ? result : (expected as Workbook)).sheetNames;
  const rest = ref.slice(2);
  if (ref[1] === 'N') return { book, name: rest };
  // Python: names[int(rest)] — negative indexes count from the end; a bad index gives "".
  const index = /^\s*[+-]?\d+\s*$/.test(rest) ? Number(rest) : Number.NaN;
  const name = Number.isNaN(index) ? undefined : names[index < 0 ? names.length + index : index];
  return { book, name: name ?? '' };
}
