// chart: OSWorld `load_charts` over openpyxl's `ws._charts`, read here from the drawing and chart parts.
// Charts are keyed by their series ("valRef,catRef;…", first chart group only, by series order); the asked
// chart_props are title, legend, anchor, width, height, type, direction, xtitle, ytitle, ztitle. openpyxl never reads
// a loaded chart's size, so width and height are always its defaults, 15 and 7.5.
import { child, children, type XmlElement } from './xml.ts';
import type { Workbook } from './workbook.ts';
import { MetricOptionsError } from '../../errors.ts';
import { MalformedInputError } from '../../../errors.ts';

export type ChartInfo = Record<string, string | number | null | (string | number | null)[]>;

const ANCHORS = ['twoCellAnchor', 'oneCellAnchor', 'absoluteAnchor'];
const CHART_PROPS = ['title', 'legend', 'anchor', 'width', 'height', 'type', 'direction', 'xtitle', 'ytitle', 'ztitle'];

/** First run of the first paragraph of a rich-text title (`title.tx.rich.p[0].r[0].t`), else None. */
function titleText(title: XmlElement | undefined): string | null {
  const paragraph = child(child(child(title, 'tx'), 'rich'), 'p');
  const run = child(paragraph, 'r');
  const t = child(run, 't');
  return t ? t.text : null;
}

function refOf(element: XmlElement | undefined): string {
  const num = child(element, 'numRef');
  if (num) return child(num, 'f')?.text ?? '';
  const str = child(element, 'strRef');
  if (str) return child(str, 'f')?.text ?? '';
  return '';
}

interface Axes {
  x?: XmlElement | null;
  y?: XmlElement | null;
  z?: XmlElement | null;
}

function chartAxes(plotArea: XmlElement, chart: XmlElement): Axes {
  const byId = new Map<string, XmlElement>();
  for (const axis of plotArea.children) {
    if (['valAx', 'catAx', 'dateAx', 'serAx'].includes(axis.name)) byId.set(child(axis, 'axId')?.attrs.val ?? '', axis);
  }
  const ids = children(chart, 'axId').map((a) => a.attrs.val ?? '');
  if (chart.name === 'scatterChart' || chart.name === 'bubbleChart') return { x: byId.get(ids[0]), y: byId.get(ids[1]) };
  const axes: Axes = {};
  for (const id of ids) {
    const axis = byId.get(id);
    if (!axis) {
      axes.z = null;
      continue;
    }
    if (axis.name === 'catAx' || axis.name === 'dateAx') axes.x = axis;
    else if (axis.name === 'valAx') axes.y = axis;
    else if (axis.name === 'serAx') axes.z = axis;
  }
  return axes;
}

export async function loadCharts(book: Workbook, sheetName: string, chartProps: string[]): Promise<Record<string, ChartInfo>> {
  for (const prop of chartProps) if (!CHART_PROPS.includes(prop)) throw new MetricOptionsError(`chart: unknown chart_props entry "${prop}" (expected ${CHART_PROPS.join(', ')})`);
  const out: Record<string, ChartInfo> = {};
  const entry = book.sheets.find((s) => s.name === sheetName && s.isWorksheet);
  const sheet = await book.worksheet(sheetName);
  if (!entry?.path || !sheet) return out;
  const sheetRels = await book.relationships(entry.path);
  for (const drawingRef of children(sheet.meta, 'drawing')) {
    const drawingRel = sheetRels.get(drawingRef.attrs.id ?? '');
    if (!drawingRel) continue;
    const drawing = await book.xml(drawingRel.target);
    if (!drawing) continue;
    const drawingRels = await book.relationships(drawingRel.target);
    const anchors = ANCHORS.flatMap((name) => children(drawing, name));
    for (const anchor of anchors) {
      const chartRef = child(child(child(child(anchor, 'graphicFrame'), 'graphic'), 'graphicData'), 'chart');
      const chartRel = chartRef && drawingRels.get(chartRef.attrs.id ?? '');
      if (!chartRel) continue;
      const space = await book.xml(chartRel.target);
      if (!space) continue;
      const chartElement = child(space, 'chart');
      const plotArea = child(chartElement, 'plotArea');
      const first = plotArea?.children.find((c) => /Chart$/.test(c.name));
      if (!chartElement || !plotArea || !first) continue;
      const series = children(first, 'ser')
        .map((ser, i) => ({ ser, order: Number(child(ser, 'order')?.attrs.val ?? i) }))
        .sort((a, b) => a.order - b.order)
        .map(({ ser }) => `${refOf(child(ser, 'val'))},${refOf(child(ser, 'cat'))}`)
        .join(';');
      const info: ChartInfo = {};
      const axes = chartAxes(plotArea, first);
      for (const prop of chartProps) {
        switch (prop) {
          case 'title':
            info.title = titleText(child(chartElement, 'title'));
            break;
          case 'legend': {
            const legend = child(chartElement, 'legend');
            info.legend = legend ? (child(legend, 'legendPos')?.attrs.val ?? 'r') : null;
            break;
          }
          case 'anchor': {
            if (anchor.name !== 'twoCellAnchor') throw new MalformedInputError(`chart: a ${anchor.name} has no editAs/to (openpyxl raises AttributeError)`);
            const col = (e: string) => Number(child(child(anchor, e), 'col')?.text ?? 0);
            const row = (e: string) => Number(child(child(anchor, e), 'row')?.text ?? 0);
            // OSWorld lists to.row where from.row was meant: [editAs, from.col, to.row, to.col, to.row].
            info.anchor = [anchor.attrs.editAs ?? null, col('from'), row('to'), col('to'), row('to')];
            break;
          }
          case 'width':
            info.width = 15;
            break;
          case 'height':
            info.height = 7.5;
            break;
          case 'type':
            info.type = first.name;
            break;
          case 'direction':
            if (first.name !== 'barChart' && first.name !== 'bar3DChart') throw new MalformedInputError(`chart: a ${first.name} has no barDir (openpyxl raises AttributeError)`);
            info.direction = child(first, 'barDir')?.attrs.val ?? 'col';
            break;
          case 'xtitle':
            info.xtitle = titleText(child(axes.x ?? undefined, 'title'));
            break;
          case 'ytitle':
            info.ytitle = titleText(child(axes.y ?? undefined, 'title'));
            break;
          case 'ztitle':
            info.ztitle = titleText(child(axes.z ?? undefined, 'title'));
            break;
        }
      }
      out[series] = info;
    }
  }
  return out;
}
