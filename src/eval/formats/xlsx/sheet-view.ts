// freeze and zoom: the first sheetView of a worksheet, as openpyxl's `ws.sheet_view`.
import { child } from './xml.ts';
import type { Worksheet } from './sheet-xml.ts';

/**
 * OSWorld `_freeze_compare_key`: ("none",) without a pane; ("frozen", xSplit, ySplit) for frozen panes (scroll
 * position does not matter); otherwise ("other", xSplit, ySplit, topLeftCell).
 */
export function freezeKey(sheet: Worksheet): (string | number | null)[] {
  const pane = child(child(child(sheet.meta, 'sheetViews'), 'sheetView'), 'pane');
  if (!pane) return ['none'];
  const state = (pane.attrs.state ?? 'split').toLowerCase();
  const xs = pane.attrs.xSplit !== undefined ? Math.trunc(Number(pane.attrs.xSplit)) : 0;
  const ys = pane.attrs.ySplit !== undefined ? Math.trunc(Number(pane.attrs.ySplit)) : 0;
  if (state === 'frozen' || state === 'frozensplit') return ['frozen', xs, ys];
  return ['other', xs, ys, pane.attrs.topLeftCell ?? null];
}

/** `sheet_view.zoomScale or 100.0`. */
export function zoomScale(sheet: Worksheet): number {
  const zoom = child(child(sheet.meta, 'sheetViews'), 'sheetView')?.attrs.zoomScale;
  const value = zoom === undefined ? 0 : Number(zoom);
  return value || 100;
}
