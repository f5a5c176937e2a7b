// Screenshots sent to a model may be smaller than the screen; the coordinates the model answers in are then
// mapped back to screen pixels. This module holds the sizes, the resize (sharp) and the mapping of
// coordinates inside pyautogui code and computer_13 actions.

import sharp from 'sharp';
import { AgentError } from '../../errors.ts';

export interface Size {
  width: number;
  height: number;
}

/** The largest size with the screen's aspect ratio that fits inside `max` (never larger than the screen). */
export function fitWithin(screen: Size, max: Size): Size {
  const ratio = Math.min(1, max.width / screen.width, max.height / screen.height);
  return { width: Math.max(1, Math.round(screen.width * ratio)), height: Math.max(1, Math.round(screen.height * ratio)) };
}

/** Width and height of a PNG (or any image sharp reads). */
export async function imageSize(image: Buffer): Promise<Size> {
  const meta = await sharp(image).metadata();
  if (!meta.width || !meta.height) throw new AgentError('screenshot: cannot read the image size');
  return { width: meta.width, height: meta.height };
}

/** The image resized to exactly `size`, as PNG (unchanged when it already has that size). */
export async function resizePng(image: Buffer, from: Size, size: Size): Promise<Buffer> {
  if (from.width === size.width && from.height === size.height) return image;
  return sharp(image).resize(size.width, size.height, { fit: 'fill' }).png().toBuffer();
}

/** Maps points from the image the model saw to screen pixels (rounded, kept on the screen). */
export class CoordinateMapper {
  readonly image: Size;
  readonly screen: Size;
  constructor(image: Size, screen: Size) {
    this.image = image;
    this.screen = screen;
  }
  get identity(): boolean {
    return this.image.width === this.screen.width && this.image.height === this.screen.height;
  }
  x(value: number): number {
    return clamp(Math.round((value * this.screen.width) / this.image.width), 0, this.screen.width - 1);
  }
  y(value: number): number {
    return clamp(Math.round((value * this.screen.height) / this.image.height), 0, this.screen.height - 1);
  }
  /** Relative moves scale without the clamp. */
  dx(value: number): number {
    return Math.round((value * this.screen.width) / this.image.width);
  }
  dy(value: number): number {
    return Math.round((value * this.screen.height) / this.image.height);
  }
  /** Screen pixels back to the model's image space (for cursor positions reported to the model). */
  toImage(point: { x: number; y: number }): { x: number; y: number } {
    return {
      x: Math.round((point.x * this.image.width) / this.screen.width),
      y: Math.round((point.y * this.image.height) / this.screen.height),
    };
  }
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

// ── coordinates inside pyautogui code ──────────────────────────────────────

/** Where each pyautogui function takes its point: positional indexes and keyword names. */
const POINT_ARGS: Record<string, { x: number; y: number; kx: string; ky: string; relative?: true }> = {
  moveTo: { x: 0, y: 1, kx: 'x', ky: 'y' },
  dragTo: { x: 0, y: 1, kx: 'x', ky: 'y' },
  click: { x: 0, y: 1, kx: 'x', ky: 'y' },
  leftClick: { x: 0, y: 1, kx: 'x', ky: 'y' },
  doubleClick: { x: 0, y: 1, kx: 'x', ky: 'y' },
  tripleClick: { x: 0, y: 1, kx: 'x', ky: 'y' },
  rightClick: { x: 0, y: 1, kx: 'x', ky: 'y' },
  middleClick: { x: 0, y: 1, kx: 'x', ky: 'y' },
  mouseDown: { x: 0, y: 1, kx: 'x', ky: 'y' },
  mouseUp: { x: 0, y: 1, kx: 'x', ky: 'y' },
  scroll: { x: 1, y: 2, kx: 'x', ky: 'y' },
  hscroll: { x: 1, y: 2, kx: 'x', ky: 'y' },
  vscroll: { x: 1, y: 2, kx: 'x', ky: 'y' },
  moveRel: { x: 0, y: 1, kx: 'xOffset', ky: 'yOffset', relative: true },
  move: { x: 0, y: 1, kx: 'xOffset', ky: 'yOffset', relative: true },
  dragRel: { x: 0, y: 1, kx: 'xOffset', ky: 'yOffset', relative: true },
  drag: { x: 0, y: 1, kx: 'xOffset', ky: 'yOffset', relative: true },
};

const NUMBER = /^[-+]?(?:\d+\.?\d*|\.\d+)$/;

/**
 * Rewrite the numeric coordinates of `pyautogui.<fn>(...)` calls from image to screen pixels. Only literal
 * numbers (and a literal `(x, y)` tuple as first argument) are mapped; coordinates computed from variables or
 * expressions cannot be, and are left as written. Text inside string literals is never touched.
 */
export function mapPyautoguiCoordinates(code: string, mapper: CoordinateMapper): string {
  if (mapper.identity) return code;
  let out = '';
  let i = 0;
  while (i < code.length) {
    const stringEnd = skipString(code, i);
    if (stringEnd > i) { out += code.slice(i, stringEnd); i = stringEnd; continue; }
    if (code[i] === '#') { const end = lineEnd(code, i); out += code.slice(i, end); i = end; continue; }
    const call = /pyautogui\s*\.\s*(\w+)\s*\(/y;
    call.lastIndex = i;
    const match = (i === 0 || !/[\w.]/.test(code[i - 1])) ? call.exec(code) : null;
    const spec = match ? POINT_ARGS[match[1]] : undefined;
    if (!match || !spec) { out += code[i]; i++; continue; }
    const argsStart = i + match[0].length;
    const close = matchingParen(code, argsStart);
    if (close < 0) { out += code.slice(i); break; }
    out += match[0] + mapArguments(code.slice(argsStart, close), spec, mapper) + ')';
    i = close + 1;
  }
  return out;
}

function mapArguments(args: string, spec: (typeof POINT_ARGS)[string], mapper: CoordinateMapper): string {
  const parts = splitTopLevel(args);
  const mapX = (v: number) => spec.relative ? mapper.dx(v) : mapper.x(v);
  const mapY = (v: number) => spec.relative ? mapper.dy(v) : mapper.y(v);
  let positional = 0;
  const mapped = parts.map((part) => {
    const keyword = /^(\s*)(\w+)(\s*=\s*)(.*?)(\s*)$/s.exec(part);
    if (keyword && !/^\s*==/.test(part.slice(keyword[1].length + keyword[2].length))) {
      const [, lead, name, eq, value, trail] = keyword;
      if (name === spec.kx) return lead + name + eq + mapNumber(value, mapX) + trail;
      if (name === spec.ky) return lead + name + eq + mapNumber(value, mapY) + trail;
      return part;
    }
    const index = positional++;
    if (index === spec.x && index === 0) {
      const tuple = /^(\s*[([]\s*)([^,()[\]]+?)(\s*,\s*)([^,()[\]]+?)(\s*,?\s*[)\]]\s*)$/.exec(part);
      if (tuple) return tuple[1] + mapNumber(tuple[2], mapX) + tuple[3] + mapNumber(tuple[4], mapY) + tuple[5];
    }
    if (index === spec.x) return mapNumber(part, mapX);
    if (index === spec.y) return mapNumber(part, mapY);
    return part;
  });
  return mapped.join(',');
}

function mapNumber(text: string, map: (value: number) => number): string {
  const trimmed = text.trim();
  if (!NUMBER.test(trimmed)) return text;
  const start = text.indexOf(trimmed);
  return text.slice(0, start) + String(map(Number(trimmed))) + text.slice(start + trimmed.length);
}

/** Split an argument list on its top-level commas (not inside brackets or strings). */
function splitTopLevel(args: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < args.length; i++) {
    const end = skipString(args, i);
    if (end > i) { i = end - 1; continue; }
    const ch = args[i];
    if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if (ch === ')' || ch === ']' || ch === '}') depth--;
    else if (ch === ',' && depth === 0) { parts.push(args.slice(start, i)); start = i + 1; }
  }
  parts.push(args.slice(start));
  return parts;
}

/** Index of the `)` closing the call whose arguments start at `from`, or -1. */
function matchingParen(code: string, from: number): number {
  let depth = 0;
  for (let i = from; i < code.length; i++) {
    const end = skipString(code, i);
    if (end > i) { i = end - 1; continue; }
    const ch = code[i];
    if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if (ch === ')' || ch === ']' || ch === '}') {
      if (depth === 0) return ch === ')' ? i : -1;
      depth--;
    }
  }
  return -1;
}

/** If a Python string literal (with an optional r/b/f/u prefix) starts at `i`, the index after it; else `i`. */
function skipString(code: string, i: number): number {
  const prefix = /[rRbBfFuU]{0,2}(?=['"])/y;
  prefix.lastIndex = i;
  if (i > 0 && /\w/.test(code[i - 1])) return i;
  const m = prefix.exec(code);
  if (!m) return i;
  let j = i + m[0].length;
  const quote = code[j];
  const triple = code.startsWith(quote.repeat(3), j);
  const closer = triple ? quote.repeat(3) : quote;
  j += closer.length;
  const raw = /[rR]/.test(m[0]);
  while (j < code.length) {
    if (code[j] === '\\' && !raw) { j += 2; continue; }
    if (code[j] === '\\' && raw) { j += 2; continue; } // a raw string still cannot end on an escaped quote
    if (code.startsWith(closer, j)) return j + closer.length;
    if (!triple && code[j] === '\n') return j; // unterminated: stop at the line end
    j++;
  }
  return code.length;
}

function lineEnd(code: string, i: number): number {
  const end = code.indexOf('\n', i);
  return end < 0 ? code.length : end;
}

// ── coordinates inside computer_13 actions ─────────────────────────────────

const POINT_ACTIONS = new Set(['MOVE_TO', 'CLICK', 'RIGHT_CLICK', 'DOUBLE_CLICK', 'DRAG_TO']);

/** A computer_13 action with its x / y (top level or under `parameters`) mapped to screen pixels. */
export function mapComputer13Coordinates<T>(action: T, mapper: CoordinateMapper): T {
  if (mapper.identity || typeof action !== 'object' || action === null) return action;
  const record = action as Record<string, unknown>;
  if (typeof record.action_type !== 'string' || !POINT_ACTIONS.has(record.action_type)) return action;
  const mapPoint = (p: Record<string, unknown>) => ({
    ...p,
    ...(typeof p.x === 'number' ? { x: mapper.x(p.x) } : {}),
    ...(typeof p.y === 'number' ? { y: mapper.y(p.y) } : {}),
  });
  if (typeof record.parameters === 'object' && record.parameters !== null) {
    return { ...record, parameters: mapPoint(record.parameters as Record<string, unknown>) } as T;
  }
  return mapPoint(record) as T;
}
