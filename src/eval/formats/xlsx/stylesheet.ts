// xl/styles.xml as openpyxl exposes it to OSWorld's style checks: number formats (built-in table + custom), fonts,
// fills, cell formats (cellXfs) and the differential formats (dxfs) that conditional formats point to.
import { child, children, type XmlElement } from './xml.ts';

/**
 * openpyxl's `Color.rgb` for a theme, indexed or auto colour is not a string: it is the descriptor object, printed
 * "Values must be of type <class 'str'>". It equals itself and nothing else, so it is kept as one shared object.
 */
const NON_RGB_COLOR = Object.freeze({ toString: () => "Values must be of type <class 'str'>" });
export type RgbValue = string | typeof NON_RGB_COLOR;

interface Color {
  rgb: RgbValue;
}

export interface Font {
  name: string | null;
  family: number | null;
  color: Color | null;
  bold: boolean | null;
  italic: boolean | null;
  underline: string | null;
  size: number | null;
}

interface Fill {
  /** openpyxl's tagname: "patternFill" or "gradientFill". */
  tagname: string;
  fgColor: Color | null;
  bgColor: Color | null;
}

interface CellFormat {
  numFmtId: number;
  fontId: number;
  fillId: number;
}

export interface DifferentialStyle {
  font: Font | null;
  fill: Fill | null;
  numFmt: string | null;
}

export interface Stylesheet {
  fonts: Font[];
  fills: Fill[];
  cellXfs: CellFormat[];
  dxfs: DifferentialStyle[];
  /** The number format string of a cellXfs index ("General" by default). */
  numberFormat(styleIndex: number): string;
  /** Whether openpyxl reads numbers in this style as dates/times (and as timedeltas). */
  dateKind(styleIndex: number): 'date' | 'timedelta' | null;
}

// openpyxl.styles.numbers.BUILTIN_FORMATS
const BUILTIN_FORMATS: Record<number, string> = {
  0: 'General', 1: '0', 2: '0.00', 3: '#,##0', 4: '#,##0.00',
  5: '"$"#,##0_);("$"#,##0)', 6: '"$"#,##0_);[Red]("$"#,##0)', 7: '"$"#,##0.00_);("$"#,##0.00)',
  8: '"$"#,##0.00_);[Red]("$"#,##0.00)', 9: '0%', 10: '0.00%', 11: '0.00E+00', 12: '# ?/?', 13: '# ??/??',
  14: 'mm-dd-yy', 15: 'd-mmm-yy', 16: 'd-mmm', 17: 'mmm-yy', 18: 'h:mm AM/PM', 19: 'h:mm:ss AM/PM', 20: 'h:mm',
  21: 'h:mm:ss', 22: 'm/d/yy h:mm', 37: '#,##0_);(#,##0)', 38: '#,##0_);[Red](#,##0)', 39: '#,##0.00_);(#,##0.00)',
  40: '#,##0.00_);[Red](#,##0.00)', 41: '_(* #,##0_);_(* \\(#,##0\\);_(* "-"_);_(@_)',
  42: '_("$"* #,##0_);_("$"* \\(#,##0\\);_("$"* "-"_);_(@_)', 43: '_(* #,##0.00_);_(* \\(#,##0.00\\);_(* "-"??_);_(@_)',
  44: '_("$"* #,##0.00_)_("$"* \\(#,##0.00\\)_("$"* "-"??_)_(@_)', 45: 'mm:ss', 46: '[h]:mm:ss', 47: 'mmss.0',
  48: '##0.0E+0', 49: '@',
};

/** openpyxl `is_date_format`: the first section, without quoted literals and [..] codes other than [h]/[m]/[s]. */
function isDateFormat(format: string): boolean {
  const first = format.split(';')[0].replace(/".*?"|\[(?!hh?\]|mm?\]|ss?\])[^\]]*\]/g, '');
  return /(?<![_\\])[dmhysDMHYS]/.test(first);
}

/** openpyxl `is_timedelta_format`. */
function isTimedeltaFormat(format: string): boolean {
  return /^(\[hh?\](:mm(:ss(\.0*)?)?)?|\[mm?\](:ss(\.0*)?)?|\[ss?\](\.0*)?)/i.test(format.split(';')[0]);
}

function readBool(element: XmlElement | undefined): boolean | null {
  if (!element) return null;
  const val = element.attrs.val;
  if (val === undefined) return true;
  return !['false', 'f', '0'].includes(val.toLowerCase());
}

function readColor(element: XmlElement | undefined): Color | null {
  if (!element) return null;
  const { rgb, indexed, theme, auto } = element.attrs;
  if (indexed !== undefined || theme !== undefined || auto !== undefined) return { rgb: NON_RGB_COLOR };
  if (rgb === undefined) return { rgb: '00000000' };
  return { rgb: rgb.length === 6 ? `00${rgb}` : rgb };
}

function readFont(element: XmlElement | undefined): Font | null {
  if (!element) return null;
  const val = (name: string) => child(element, name)?.attrs.val;
  const underline = child(element, 'u');
  const u = underline ? (underline.attrs.val ?? 'single') : null;
  const family = val('family');
  const size = val('sz');
  return {
    name: val('name') ?? null,
    family: family === undefined ? null : Number(family),
    color: readColor(child(element, 'color')),
    bold: readBool(child(element, 'b')),
    italic: readBool(child(element, 'i')),
    underline: u === 'none' ? null : u,
    size: size === undefined ? null : Number(size),
  };
}

function readFill(element: XmlElement | undefined): Fill | null {
  if (!element) return null;
  const gradient = child(element, 'gradientFill');
  if (gradient) return { tagname: 'gradientFill', fgColor: null, bgColor: null };
  const pattern = child(element, 'patternFill');
  return {
    tagname: 'patternFill',
    fgColor: readColor(child(pattern, 'fgColor')) ?? { rgb: '00000000' },
    bgColor: readColor(child(pattern, 'bgColor')) ?? { rgb: '00000000' },
  };
}

export function readStylesheet(root: XmlElement | undefined): Stylesheet {
  const custom = new Map<number, string>();
  for (const fmt of children(child(root, 'numFmts'), 'numFmt')) custom.set(Number(fmt.attrs.numFmtId), fmt.attrs.formatCode ?? '');
  const fonts = children(child(root, 'fonts'), 'font').map((f) => readFont(f) as Font);
  const fills = children(child(root, 'fills'), 'fill').map((f) => readFill(f) as Fill);
  const cellXfs = children(child(root, 'cellXfs'), 'xf').map((xf) => ({
    numFmtId: Number(xf.attrs.numFmtId ?? 0),
    fontId: Number(xf.attrs.fontId ?? 0),
    fillId: Number(xf.attrs.fillId ?? 0),
  }));
  const dxfs = children(child(root, 'dxfs'), 'dxf').map((dxf) => ({
    font: readFont(child(dxf, 'font')),
    fill: readFill(child(dxf, 'fill')),
    numFmt: child(dxf, 'numFmt')?.attrs.formatCode ?? null,
  }));
  const formatOf = (id: number) => custom.get(id) ?? BUILTIN_FORMATS[id] ?? 'General';
  const kinds = new Map<number, 'date' | 'timedelta' | null>();
  return {
    fonts,
    fills,
    cellXfs,
    dxfs,
    numberFormat(styleIndex) {
      const xf = cellXfs[styleIndex];
      return formatOf(xf ? xf.numFmtId : 0);
    },
    dateKind(styleIndex) {
      let kind = kinds.get(styleIndex);
      if (kind === undefined) {
        const format = this.numberFormat(styleIndex);
        kind = isTimedeltaFormat(format) ? 'timedelta' : isDateFormat(format) ? 'date' : null;
        kinds.set(styleIndex, kind);
      }
      return kind;
    },
  };
}
