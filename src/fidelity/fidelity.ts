// One pass of the fidelity measure on a desktop: the bare desktop's dock and icons, then each app opened as OSWorld's
// tasks open it, measured (with the dialogs agents open in it) and closed, and the screenshots compared with OSWorld's.
// One row per figure.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DesktopClient } from '../desktop/client.ts';
import { endProcesses } from '../desktop/end-processes.ts';
import { settleDesktop } from '../desktop/settle.ts';
import { type WindowMatch, elementCentre, mainWindowOf, pointDistance, rectDistance, waitForWindow, windowsOnScreen } from './measure.ts';
import { APPS, type AppTarget, COMPARISONS, DESKTOP, DIALOGS, type DialogTarget, type ElementTarget, type Point, type Rect, TOLERANCE } from './osworld-screen.ts';
import { regionSimilarity } from './similarity.ts';

export interface FidelityRow {
  item: string;
  /** OSWorld's figure; null where no OSWorld screenshot shows it (ours is reported, not held to anything). */
  osworld: Rect | Point | null;
  /** Ours; null when the window or element was not found. */
  ours: Rect | Point | null;
  /** Pixels between the two (the largest edge distance for rectangles). */
  distance: number | null;
  tolerance: number | null;
  /** Within tolerance; null when there is nothing to hold it to. */
  ok: boolean | null;
  source: string;
}

interface SimilarityRow {
  label: string;
  reference: string;
  /** SSIM over the comparison's regions, or null when the reference screenshot is not there. */
  ssim: number | null;
}

export interface FidelityReport {
  rows: FidelityRow[];
  similarity: SimilarityRow[];
}

export interface FidelityOptions {
  /** Only these apps (APPS' names); default all. */
  apps?: string[];
  /** Folder of OSWorld's reference screenshots; comparisons are skipped (ssim null) where it lacks a file. */
  referenceDir?: string;
  /** Seconds an app may take to show its window (default 90: a loaded machine is slow). */
  openTimeout?: number;
  /** Folder to write our screenshot of each comparison into (ours-<reference>.png); none by default. */
  screenshotsDir?: string;
  onProgress?: (message: string) => void;
}

function elementRow(target: ElementTarget, tree: string, tolerance: number): FidelityRow {
  const ours = elementCentre(tree, target.role, target.name);
  const distance = ours && Math.round(pointDistance(ours, target.at) * 10) / 10;
  return { item: target.label, osworld: target.at, ours, distance, tolerance, ok: distance !== null && distance <= tolerance, source: target.source };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits until the window's rectangle stays put for a second (mutter or the osworld-windows extension maximizes, moves
 * or sizes it just after it maps), from `first`, the rectangle it had when found.
 */
async function settledRect(client: DesktopClient, match: WindowMatch, first: Rect): Promise<Rect | null> {
  let last: Rect | null = first;
  for (let tries = 0; tries < 20; tries++) {
    await sleep(1000);
    const rect = (await windowsOnScreen(client)).find(match)?.rect ?? null;
    if (rect && last && rectDistance(rect, last) === 0) return rect;
    last = rect;
  }
  return last;
}

/**
 * Ends the app (SIGTERM, then SIGKILL for what is left after a second) and waits until its processes and windows are
 * gone, so the next app opens on a desktop without it (and a LibreOffice still exiting cannot take the next one's start).
 */
async function closeApp(client: DesktopClient, app: AppTarget): Promise<void> {
  await endProcesses(client, app.close, { match: 'command line', waitSeconds: 1, thenKill: true });
  for (let tries = 0; tries < 10; tries++) {
    if (!(await windowsOnScreen(client)).some((window) => app.wmClass.test(window.class))) return;
    await sleep(250);
  }
}

/** Rows of one rectangle against OSWorld's (windows and dialogs). */
function rectRow(item: string, target: { rect: Rect; source: string } | undefined, ours: Rect | null): FidelityRow {
  const distance = ours && target ? rectDistance(ours, target.rect) : null;
  return {
    item,
    osworld: target?.rect ?? null,
    ours,
    distance,
    tolerance: target ? TOLERANCE.window : null,
    ok: target ? distance !== null && distance <= TOLERANCE.window : null,
    source: target?.source ?? 'not shown on any OSWorld screenshot',
  };
}

/** Opens the dialog in the app's window (a click in its middle gives it the keys), measures it and closes it (Escape). */
async function measureDialog(client: DesktopClient, dialog: DialogTarget, appRect: Rect): Promise<FidelityRow> {
  const [x, y, width, height] = appRect;
  await client.runPython(`import pyautogui; pyautogui.click(${x + Math.round(width / 2)}, ${y + Math.round(height / 2)})`);
  await sleep(500);
  await client.runPython(`import pyautogui; pyautogui.hotkey(${dialog.keys.map((key) => `'${key}'`).join(', ')})`);
  const titled: WindowMatch = (window) => dialog.title.test(window.title);
  const found = await waitForWindow(client, titled, 30_000);
  const ours = found && (await settledRect(client, titled, found.rect));
  await client.runPython("import pyautogui; pyautogui.press('escape')");
  await sleep(1000);
  return rectRow(`${dialog.dialog} dialog`, dialog, ours);
}

async function compare(client: DesktopClient, options: FidelityOptions, app: string | undefined, out: SimilarityRow[]): Promise<void> {
  const { referenceDir, screenshotsDir } = options;
  for (const comparison of COMPARISONS.filter((c) => c.app === app)) {
    const file = referenceDir && join(referenceDir, comparison.reference);
    const hasReference = Boolean(file && existsSync(file));
    if (!hasReference && !screenshotsDir) {
      out.push({ label: comparison.label, reference: comparison.reference, ssim: null });
      continue;
    }
    // The window is up but the app may still be drawing (GIMP's docks come a while after its window).
    await settleDesktop(client, { maxSeconds: 60 });
    const screenshot = await client.screenshot();
    // Ours beside OSWorld's, to look at side by side (the figure alone does not say what differs).
    if (screenshotsDir) writeFileSync(join(screenshotsDir, `ours-${comparison.reference.replace(/\.\w+$/, '')}.png`), screenshot);
    const ssim = hasReference ? await regionSimilarity(screenshot, file as string, comparison.regions) : null;
    out.push({ label: comparison.label, reference: comparison.reference, ssim: ssim === null ? null : Math.round(ssim * 1000) / 1000 });
  }
}

export async function measureFidelity(client: DesktopClient, options: FidelityOptions = {}): Promise<FidelityReport> {
  const rows: FidelityRow[] = [];
  const similarity: SimilarityRow[] = [];
  const say = options.onProgress ?? (() => {});
  say('the bare desktop');
  const desktopTree = await client.accessibilityTree();
  for (const target of DESKTOP) rows.push(elementRow(target, desktopTree, target.label.startsWith('dock') ? TOLERANCE.dock : TOLERANCE.element));
  await compare(client, options, undefined, similarity);

  for (const app of APPS.filter((a) => !options.apps || options.apps.includes(a.app))) {
    say(app.app);
    await client.launch(app.open, true);
    const mainWindow = mainWindowOf(app.wmClass);
    const found = await waitForWindow(client, mainWindow, (options.openTimeout ?? 90) * 1000);
    const rect = found && (await settledRect(client, mainWindow, found.rect));
    rows.push(rectRow(`${app.app} window`, app.window, rect));
    if (app.elements.length) {
      // Menus and toolbars are in the tree a moment after the window (VS Code's after its workbench loads; VLC's Qt
      // menu bar took over 20 tries of a loaded CI machine once).
      let tree = await client.accessibilityTree();
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline && app.elements.some((e) => !elementCentre(tree, e.role, e.name))) {
        await sleep(1000);
        tree = await client.accessibilityTree();
      }
      for (const element of app.elements) rows.push(elementRow(element, tree, TOLERANCE.element));
    }
    await compare(client, options, app.app, similarity);
    if (rect) for (const dialog of DIALOGS.filter((d) => d.app === app.app)) rows.push(await measureDialog(client, dialog, rect));
    await closeApp(client, app);
  }
  return { rows, similarity };
}
