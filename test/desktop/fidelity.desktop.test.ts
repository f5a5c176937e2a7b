// OSWorld-Verified's screen, held: the apps OSWorld's tasks open appear where they did there (within 8 px), the
// dock's icons sit where they did (within 4 px), and files on ~/Desktop show as icons where OSWorld showed them
// (src/fidelity/osworld-screen.ts has each figure and its source). One desktop for the file.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { settleDesktop } from '../../src/desktop/settle.ts';
import { type FidelityRow, measureFidelity } from '../../src/fidelity/fidelity.ts';
import { windowsOnScreen } from '../../src/fidelity/measure.ts';
import { APPS, DIALOGS } from '../../src/fidelity/osworld-screen.ts';
import { type TestDesktop, takeDesktop } from '../helpers/desktops.ts';
import { until } from './until.ts';

let desktop: TestDesktop;
beforeAll(async () => {
  desktop = await takeDesktop();
});
afterAll(async () => {
  await desktop?.stop();
});

/** Rows out of tolerance, as lines that say what and by how much. */
const outOfTolerance = (rows: FidelityRow[]) =>
  rows.filter((row) => row.ok === false).map((row) => `${row.item}: OSWorld ${JSON.stringify(row.osworld)}, ours ${JSON.stringify(row.ours)} (${row.distance ?? 'not found'} px)`);

test("the bare desktop: the dock's icons within 4 px of OSWorld-Verified's, Home's icon where OSWorld shows it", async () => {
  const { rows } = await measureFidelity(desktop.client, { apps: [] });
  expect(rows.length).toBeGreaterThanOrEqual(15);
  expect(outOfTolerance(rows)).toEqual([]);
});

test('every app OSWorld shows opens within 8 px of its window there, its first controls and dialogs too', { timeout: 900_000 }, async () => {
  const held = APPS.filter((app) => app.window).map((app) => app.app);
  const { rows } = await measureFidelity(desktop.client, { apps: held });
  const windows = rows.filter((row) => row.item.endsWith(' window'));
  expect(windows.map((row) => row.item)).toEqual(held.map((app) => `${app} window`));
  // The dialogs agents open in them: Writer's and Chrome's file choosers, VLC's Preferences.
  expect(rows.filter((row) => row.item.endsWith(' dialog')).map((row) => row.item)).toEqual(DIALOGS.map((d) => `${d.dialog} dialog`));
  expect(outOfTolerance(rows)).toEqual([]);
});

test("a file put on ~/Desktop shows as an icon above Home's, where OSWorld showed a task's folder", async () => {
  await desktop.client.execute('touch ~/Desktop/notes.txt', { shell: true });
  // Desktop Icons NG draws each icon as an <icon> of its `gjs` application; OSWorld-Verified's screenshot has a folder
  // put on ~/Desktop by a task's setup at (1851, 885), right above Home's icon at (1853, 1003).
  const iconCentres = async () => {
    const tree = await desktop.client.accessibilityTree();
    const ding = tree.slice(tree.indexOf('<application name="gjs"'));
    return [...ding.matchAll(/<icon [^>]*cp:screencoord="\((\d+), (\d+)\)" cp:size="\((\d+), (\d+)\)"/g)].map(([, x, y, w, h]) => [Number(x) + Number(w) / 2, Number(y) + Number(h) / 2]);
  };
  const centres = await until('a second desktop icon', async () => {
    const found = await iconCentres();
    return found.length >= 2 && found;
  });
  const near = (at: number[], [x, y]: number[]) => Math.hypot(at[0] - x, at[1] - y) <= 8;
  expect(centres.some((at) => near(at, [1853, 1003])), `Home at (1853, 1003) among ${JSON.stringify(centres)}`).toBe(true);
  expect(centres.some((at) => near(at, [1851, 885])), `the file at (1851, 885) among ${JSON.stringify(centres)}`).toBe(true);
});

test("settling after setup: the app a task launched is on screen when the wait ends, as after OSWorld's 60 s sleep, and the wait ends early once the desktop is idle", async () => {
  const started = Date.now();
  await desktop.client.launch('google-chrome --remote-debugging-port=1337', true);
  const settled = await settleDesktop(desktop.client, { maxSeconds: 60 });
  expect(settled.idle).toBe(true);
  expect(settled.seconds).toBeLessThan(60);
  const chrome = (await windowsOnScreen(desktop.client)).find((window) => window.class === 'Google-chrome');
  expect(chrome?.rect, `Chrome on screen ${((Date.now() - started) / 1000).toFixed(1)} s after its launch`).toEqual([70, 27, 1850, 1053]);
  await desktop.client.execute("pkill -f 'chrom[e]'; true", { shell: true });
});
