// Reading this desktop's screen: where its windows are (window-rects.ts's script, run in the desktop through the control
// server) and where accessibility-tree elements are (their screencoord and size, as OSWorld's tree gives them).
import { DOMParser } from '@xmldom/xmldom';
import type { DesktopClient } from '../desktop/client.ts';
import type { Point, Rect } from './osworld-screen.ts';
import { WINDOW_RECTS_PY } from './window-rects.ts';
import { InternalError } from '../errors.ts';

const COMPONENT_NS = 'https://accessibility.ubuntu.example.org/ns/component';
const STATE_NS = 'https://accessibility.ubuntu.example.org/ns/state';

/** A top-level window as a person sees it. */
export interface WindowInfo {
  id: string;
  /** WM_CLASS's class part (res_class), e.g. Google-chrome. */
  class: string;
  title: string;
  /** normal, dialog, desktop, dock… (_NET_WM_WINDOW_TYPE without its prefix). */
  type: string;
  rect: Rect;
  maximized: boolean;
  fullscreen: boolean;
}

export async function windowsOnScreen(client: DesktopClient): Promise<WindowInfo[]> {
  const result = await client.runPython(WINDOW_RECTS_PY);
  if (result.return_code !== 0) throw new InternalError(`measuring the windows failed: ${result.error || result.output}`);
  return JSON.parse(result.output) as WindowInfo[];
}

/** Which window a wait or a measure is about. */
export type WindowMatch = (window: WindowInfo) => boolean;

/** An app's main windows: normal ones of its WM_CLASS. */
export const mainWindowOf =
  (wmClass: RegExp): WindowMatch =>
  (window) =>
    window.type === 'normal' && wmClass.test(window.class);

/** The first window that matches, once one is on screen (polled every 500 ms), else null. */
export async function waitForWindow(client: DesktopClient, match: WindowMatch, timeoutMs: number): Promise<WindowInfo | null> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await windowsOnScreen(client)).find(match);
    if (found || Date.now() > deadline) return found ?? null;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** The centre of the first showing element of this role and name in an accessibility tree (OSWorld's XML), or null. */
export function elementCentre(treeXml: string, role: string, name: string): Point | null {
  const document = new DOMParser().parseFromString(treeXml, 'text/xml');
  for (const element of Array.from(document.getElementsByTagName(role))) {
    if (element.getAttribute('name') !== name || element.getAttributeNS(STATE_NS, 'showing') !== 'true') continue;
    const position = numbers(element.getAttributeNS(COMPONENT_NS, 'screencoord'));
    const size = numbers(element.getAttributeNS(COMPONENT_NS, 'size'));
    if (!position || !size || size[0] <= 0 || size[1] <= 0) continue;
    return [position[0] + size[0] / 2, position[1] + size[1] / 2];
  }
  return null;
}

/** "(12, 34)" → [12, 34]. */
function numbers(pair: string | null): [number, number] | null {
  const match = /^\((-?\d+), (-?\d+)\)$/.exec(pair ?? '');
  return match ? [Number(match[1]), Number(match[2])] : null;
}

/** The largest distance, in pixels, between two rectangles' corresponding edges. */
export function rectDistance(a: Rect, b: Rect): number {
  const edges = (r: Rect) => [r[0], r[1], r[0] + r[2], r[1] + r[3]];
  const ea = edges(a);
  const eb = edges(b);
  return Math.max(...ea.map((value, i) => Math.abs(value - eb[i])));
}

export function pointDistance(a: Point, b: Point): number {
  return Math.hypot(a[0] - b[0], a[1] - b[1]);
}
