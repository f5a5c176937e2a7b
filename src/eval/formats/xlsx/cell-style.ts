// OSWorld `_read_cell_style(name, cell, diff_style=None)`: one style property of an openpyxl cell, or of the
// conditional format's differential style (dxf) when one is active. Where openpyxl would raise (a font without a
// colour, a dxf without a font or number format) this throws too: check_cell turns that into None, the style rule
// fails with it, as in OSWorld.
import type { SheetCell, OpenpyxlSheet, Hyperlink } from './openpyxl-sheet.ts';
import type { DifferentialStyle, Font, RgbValue } from './stylesheet.ts';
import { MalformedInputError } from '../../../errors.ts';
import { MetricOptionsError } from '../../errors.ts';

export type StyleValue = string | number | boolean | null | RgbValue | Hyperlink;

const STYLE_PROPS = [
  'number_format', 'font_name', 'font_family', 'font_color', 'font_bold', 'font_italic', 'font_underline', 'font_size',
  'fill_type', 'bgcolor', 'fgcolor', 'hyperlink', 'merge',
] as const;

function cellFont(sheet: OpenpyxlSheet, cell: SheetCell): Font {
  const xf = sheet.styles.cellXfs[cell.style];
  const font = sheet.styles.fonts[xf ? xf.fontId : 0];
  if (!font) throw new MalformedInputError(`cell ${cell.col},${cell.row}: font ${xf?.fontId} is not in styles.xml`);
  return font;
}

function fontOf(sheet: OpenpyxlSheet, cell: SheetCell, dxf: DifferentialStyle | undefined): Font {
  if (!dxf) return cellFont(sheet, cell);
  if (!dxf.font) throw new MalformedInputError("'NoneType' object has no attribute (the conditional format's dxf has no font)");
  return dxf.font;
}

export function readCellStyle(name: string, sheet: OpenpyxlSheet, cell: SheetCell, dxf?: DifferentialStyle): StyleValue {
  const hasValue = cell.value.t !== 'none';
  switch (name) {
    case 'number_format': {
      if (!hasValue || cell.dataType !== 'n') return null;
      if (!dxf) return sheet.styles.numberFormat(cell.style);
      if (dxf.numFmt === null) throw new MalformedInputError("'NoneType' object has no attribute 'formatCode' (the dxf has no number format)");
      return dxf.numFmt;
    }
    case 'font_name':
      return hasValue ? fontOf(sheet, cell, dxf).name : null;
    case 'font_family':
      return hasValue ? fontOf(sheet, cell, dxf).family : null;
    case 'font_color': {
      if (!hasValue) return null;
      const color = fontOf(sheet, cell, dxf).color;
      if (!color) throw new MalformedInputError("'NoneType' object has no attribute 'rgb' (the font has no colour)");
      return color.rgb;
    }
    case 'font_bold':
      return hasValue ? fontOf(sheet, cell, dxf).bold : null;
    case 'font_italic':
      return hasValue ? fontOf(sheet, cell, dxf).italic : null;
    case 'font_underline':
      return hasValue ? fontOf(sheet, cell, dxf).underline : null;
    case 'font_size':
      return hasValue ? fontOf(sheet, cell, dxf).size : null;
    case 'fill_type': {
      const fill = dxf ? dxf.fill : sheet.styles.fills[sheet.styles.cellXfs[cell.style]?.fillId ?? 0];
      return fill ? fill.tagname : null;
    }
    case 'bgcolor':
    case 'fgcolor': {
      if (dxf) return dxf.fill?.bgColor?.rgb ?? null;
      const fill = sheet.styles.fills[sheet.styles.cellXfs[cell.style]?.fillId ?? 0];
      return fill?.fgColor?.rgb ?? null;
    }
    case 'hyperlink':
      return hasValue ? (cell.hyperlink ?? '') : null;
    case 'merge':
      return cell.merged;
    default:
      throw new MetricOptionsError(`unsupported style "${name}" (expected one of ${STYLE_PROPS.join(', ')})`);
  }
}
