// VS Code's file dialogs are GTK file choosers on the desktop, as the desktop VS Code's (Electron) are on OSWorld's
// Ubuntu VM, not the web workbench's quick pick (docker/desktop/vscode/extensions/deskbench-gtk-dialogs). Driven as
// agents drive them: the clicks of real OSWorld trajectories, which must land on the dialog's sidebar and buttons.
// One container for this file.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type TestDesktop, takeDesktop } from '../helpers/desktops.ts';
import { desktopShell } from './desktop-shell.ts';
import { sleep, until } from './until.ts';

let desktop: TestDesktop;
beforeAll(async () => {
  desktop = await takeDesktop();
}, 300_000); // a loaded machine starts GNOME slowly
afterAll(async () => {
  await desktop?.stop();
});

const { sh, act, windows, waitForTitle } = desktopShell(() => desktop);

interface Element { role: string; name: string; x: number; y: number; width: number; height: number }

/** Elements of the accessibility tree with a name and a place on screen. */
async function elements(): Promise<Element[]> {
  const tree = await desktop.client.accessibilityTree();
  return [...tree.matchAll(/<([\w-]+) name="([^"]*)"[^>]*? cp:screencoord="\((-?\d+), (-?\d+)\)" cp:size="\((\d+), (\d+)\)"/g)]
    .map(([, role, name, x, y, width, height]) => ({ role, name, x: +x, y: +y, width: +width, height: +height }));
}

const contains = (e: Element, [x, y]: [number, number]) => x >= e.x && x < e.x + e.width && y >= e.y && y < e.y + e.height;
const centre = (e: Element) => `pyautogui.click(${e.x + Math.floor(e.width / 2)}, ${e.y + Math.floor(e.height / 2)})`;

/** The GTK dialog's element of this role and name (the workbench behind it may hold namesakes: the last one wins,
 *  the dialog's elements come after the workbench's in the tree). */
async function dialogElement(role: string, name: string): Promise<Element> {
  return until(`a ${role} "${name}" on screen`, async () => (await elements()).filter((e) => e.role === role && e.name === name).pop(), 30_000);
}

test('New File... then a name and Enter opens GTK\'s "Create File" dialog, where OSWorld\'s agents click Desktop and Create File', { timeout: 300_000 }, async () => {
  await desktop.client.launch('code', true);
  await waitForTitle('Welcome - Visual Studio Code');
  await until('the Welcome page', async () => (await desktop.client.accessibilityTree()).includes('Editing evolved'), 90_000);
  await sleep(2000);
  // UI-TARS's trajectory of 57242fad, step by step (Doubao-1.5's differs by 1-3 px).
  await act('pyautogui.click(672, 406)');
  await until('the New File... quick pick', async () => (await desktop.client.accessibilityTree()).includes('Select File Type or Enter File Name'), 30_000);
  await act("pyautogui.write('test.py', interval=0.03)\ntime.sleep(0.5)\npyautogui.press('enter')");
  // A window of its own, titled as Electron titles it, grouped with VS Code (WM_CLASS Code).
  const dialog = await waitForTitle('Create File', 60_000);
  expect(dialog.wmClass).toBe('code.Code');
  const create = await dialogElement('push-button', 'Create File');
  const cancel = await dialogElement('push-button', 'Cancel');
  expect(cancel.x).toBeLessThan(create.x); // Cancel on the header bar's left, the accept button on its right
  const desktopPlace = await dialogElement('label', 'Desktop').catch(() => dialogElement('list-item', 'Desktop'));
  // Where both agents clicked on OSWorld's VM: the sidebar's Desktop, then the header bar's Create File button.
  for (const click of [[455, 181], [457, 184]] as [number, number][]) expect(contains(desktopPlace, click), `${JSON.stringify(desktopPlace)} at ${click}`).toBe(true);
  for (const click of [[1526, 100], [1536, 98]] as [number, number][]) expect(contains(create, click), `${JSON.stringify(create)} at ${click}`).toBe(true);
  await act('pyautogui.click(455, 181)\ntime.sleep(1)\npyautogui.click(1526, 100)');
  await until('~/Desktop/test.py written', async () => (await sh('ls ~/Desktop')).split('\n').includes('test.py'), 30_000);
  await waitForTitle('test.py - Visual Studio Code', 30_000);
  expect((await windows()).map((w) => w.title)).not.toContain('Create File');
});

test('Cancel in the Create File dialog creates no file, as VS Code\'s cancel', { timeout: 180_000 }, async () => {
  // New File... from the command palette this time (Create: New File...), the same quick pick.
  await act("pyautogui.hotkey('ctrl', 'shift', 'p')\ntime.sleep(2)\npyautogui.write('Create: New File', interval=0.03)\ntime.sleep(2)\npyautogui.press('enter')");
  await until('the New File... quick pick', async () => (await desktop.client.accessibilityTree()).includes('Select File Type or Enter File Name'), 30_000);
  await act("pyautogui.write('cancelled.py', interval=0.03)\ntime.sleep(0.5)\npyautogui.press('enter')");
  await waitForTitle('Create File', 60_000);
  await act(centre(await dialogElement('push-button', 'Cancel')));
  await until('the dialog gone', async () => !(await windows()).some((w) => w.title === 'Create File'), 30_000);
  await sleep(2000);
  expect(await sh('find ~ -name cancelled.py -not -path "*/.cache/*"')).toBe('');
  expect((await windows()).map((w) => w.title)).toContain('test.py - Visual Studio Code'); // VS Code as it was
});

test('Open Folder... (Ctrl+K Ctrl+O) shows GTK\'s "Open Folder" chooser; the folder chosen opens in the window', { timeout: 240_000 }, async () => {
  await sh('mkdir -p ~/proj && echo "x = 1" > ~/proj/main.py');
  // File > Open Folder...'s key binding (the menu item's accessible name was not found in the tree in time).
  await act("pyautogui.hotkey('ctrl', 'k')\npyautogui.hotkey('ctrl', 'o')");
  const dialog = await waitForTitle('Open Folder', 60_000);
  expect(dialog.wmClass).toBe('code.Code');
  const open = await dialogElement('push-button', 'Open');
  // Where UI-TARS and Doubao-1.5 click Open on OSWorld's VM (53ad5833, 847a96b6: Open Folder..., Open Workspace).
  for (const click of [[1545, 100], [1547, 97]] as [number, number][]) expect(contains(open, click), `${JSON.stringify(open)} at ${click}`).toBe(true);
  // The folder typed into GTK's location entry (Ctrl+L), then Open.
  await act("pyautogui.hotkey('ctrl', 'l')\ntime.sleep(0.5)\npyautogui.write('/home/user/proj/', interval=0.03)\ntime.sleep(1)");
  await act(centre(open));
  await until('the folder open in VS Code', async () => (await windows()).find((w) => / - proj - Visual Studio Code$|^proj - Visual Studio Code$/.test(w.title)), 90_000);
});

// The web workbench reads settings.json when its window loads: an edit from outside VS Code (a task's setup, an agent's
// shell) applies at the next load, not live as in the desktop VS Code (docs/desktop.md), so the window is opened anew.
test('with files.simpleDialog.enable, VS Code\'s setting, the quick pick stays', { timeout: 180_000 }, async () => {
  const settings = '/home/user/.config/Code/User/settings.json';
  const before = JSON.parse(await sh(`cat ${settings}`));
  await desktop.client.upload(settings, Buffer.from(JSON.stringify({ ...before, 'files.simpleDialog.enable': true }, null, 2)));
  await sh("pkill -f '[c]lass=Code' || true");
  await until('the VS Code window closed', async () => !(await windows()).some((w) => w.title.endsWith('Visual Studio Code')));
  await desktop.client.launch('code', true);
  await until('a VS Code window', async () => (await windows()).find((w) => w.title.endsWith('Visual Studio Code')), 150_000);
  await sleep(3000); // the workbench's key bindings, registered after its window is titled
  await act("pyautogui.hotkey('ctrl', 'k')\npyautogui.hotkey('ctrl', 'o')");
  // The workbench's simple file dialog (a quick pick with a path box: its list is named after it), and no GTK window.
  await until('the Open Folder quick pick', async () => (await desktop.client.accessibilityTree()).includes('name="Type to narrow down results. - Open Folder"'), 30_000);
  await sleep(3000);
  expect((await windows()).map((w) => w.title)).not.toContain('Open Folder');
  await act("pyautogui.press('escape')");
  await desktop.client.upload(settings, Buffer.from(JSON.stringify(before, null, 2)));
});
