// VS Code in the desktop (code-server behind the `code` wrapper), driven the way OSWorld and GUI-OS tasks drive it:
// windows opened by `code`, extensions managed from the CLI.
// One container for this file.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type TestDesktop, takeDesktop } from '../helpers/desktops.ts';
import { desktopShell } from './desktop-shell.ts';
import { until } from './until.ts';

let desktop: TestDesktop;
beforeAll(async () => {
  desktop = await takeDesktop();
}, 300_000); // a loaded machine starts GNOME slowly
afterAll(async () => {
  await desktop?.stop();
});

const { sh, act, windows, waitForTitle } = desktopShell(() => desktop);

/** Waits until the accessibility tree contains `text`; returns that tree. */
const treeWith = (what: string, text: string, timeout = 30_000) =>
  until(what, async () => {
    const tree = await desktop.client.accessibilityTree();
    return tree.includes(text) && tree;
  }, timeout);

test('`cd folder && code . file` opens a maximized VS Code window titled "file - folder - Visual Studio Code"', { timeout: 240_000 }, async () => {
  await sh('mkdir -p ~/ws && printf "print(\\"hello from deskbench\\")\\n" > ~/ws/hello.py');
  await desktop.client.launch('cd ~/ws && code . hello.py', true);
  const window = await waitForTitle('hello.py - ws - Visual Studio Code');
  expect(window.wmClass.toLowerCase()).toContain('code');
  // Maximized as the window manager means it: GNOME keeps the top bar and the dock, so the window fills the work
  // area, not the whole screen.
  const id = (await sh('wmctrl -lx')).split('\n').find((line) => line.includes('hello.py - ws - Visual Studio Code'))!.split(/\s+/)[0];
  await until('the window maximized', async () => /_NET_WM_STATE_MAXIMIZED_HORZ/.test(await sh(`xprop -id ${id} _NET_WM_STATE`)), 60_000);
  const screen = await desktop.client.screenSize();
  const size = await desktop.client.windowSize('Code');
  expect(size!.width).toBeGreaterThan(screen.width * 0.9);
  const png = await desktop.client.screenshot();
  expect(png.subarray(1, 4).toString()).toBe('PNG');
  expect(png.length).toBeGreaterThan(50_000); // a drawn workbench, not a blank screen
  // The workbench is in the accessibility tree (Chromium with --force-renderer-accessibility), not just its frame:
  // the file's name shows there again (tab, explorer) besides the window title.
  await until('the workbench in the accessibility tree', async () =>
    (await desktop.client.accessibilityTree()).split('hello.py').length > 2, 60_000);
  // OSWorld's VS Code has a menu bar (File … Help) under the title bar, no hamburger menu, command centre or layout
  // controls (the image changes the web workbench's defaults), and no secondary side bar.
  const tree = await treeWith('the menu bar in the accessibility tree', '<menu-item name="Help"', 60_000);
  const menus = [...tree.matchAll(/<menu-item name="(File|Edit|Selection|View|Go|Run|Terminal|Help)"/g)].map((match) => match[1]);
  expect(menus).toEqual(['File', 'Edit', 'Selection', 'View', 'Go', 'Run', 'Terminal', 'Help']);
  expect(tree).not.toMatch(/name="(Application Menu|Toggle Secondary Side Bar[^"]*|Hide Secondary Side Bar[^"]*)"/);
  // Edits stay unsaved until Ctrl+S, as in OSWorld's desktop VS Code (VS Code for the web saves after a second).
  await sh('xdotool key --clearmodifiers ctrl+End && xdotool type --delay 20 "# typed"');
  await treeWith('the edit in the workbench', '# typed');
  await new Promise((done) => setTimeout(done, 3000)); // past the web workbench's 1 s auto-save delay
  expect(await sh('cat ~/ws/hello.py')).not.toContain('# typed');
  await sh('xdotool key --clearmodifiers ctrl+s');
  await until('the file saved by Ctrl+S', async () => (await sh('cat ~/ws/hello.py')).includes('# typed'), 30_000);
});

test('`code --install-extension file.vsix` installs a VS Code extension that `code --list-extensions` then lists', { timeout: 180_000 }, async () => {
  // A .vsix is a zip: the manifest VS Code reads (extension/package.json) plus the package's own two XML files.
  await desktop.client.runPython([
    'import zipfile, json',
    'manifest = {"name": "hello", "publisher": "deskbench-test", "version": "1.2.3", "engines": {"vscode": "^1.80.0"}}',
    'with zipfile.ZipFile("/tmp/hello-1.2.3.vsix", "w") as z:',
    '    z.writestr("extension/package.json", json.dumps(manifest))',
    '    z.writestr("[Content_Types].xml", \'<?xml version="1.0" encoding="utf-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension=".json" ContentType="application/json"/><Default Extension=".vsixmanifest" ContentType="text/xml"/></Types>\')',
    '    z.writestr("extension.vsixmanifest", \'<?xml version="1.0" encoding="utf-8"?><PackageManifest Version="2.0.0" xmlns="http://schemas.microsoft.com/developer/vsx-schema/2011"><Metadata><Identity Language="en-US" Id="hello" Version="1.2.3" Publisher="deskbench-test"/><DisplayName>hello</DisplayName></Metadata><Installation><InstallationTarget Id="Microsoft.VisualStudio.Code"/></Installation><Dependencies/><Assets><Asset Type="Microsoft.VisualStudio.Code.Manifest" Path="extension/package.json" Addressable="true"/></Assets></PackageManifest>\')',
  ].join('\n'));
  expect((await sh('code --list-extensions')).trim()).toBe(''); // a fresh VS Code: our built-in extensions are not listed
  const install = await sh('code --install-extension /tmp/hello-1.2.3.vsix 2>&1');
  expect(install).toMatch(/successfully installed/i);
  expect((await sh('code --list-extensions')).trim().split('\n')).toEqual(['deskbench-test.hello']);
  expect(await sh('code --list-extensions --show-versions')).toContain('deskbench-test.hello@1.2.3');
  expect(await sh('ls ~/.vscode/extensions')).toContain('deskbench-test.hello-1.2.3');
});

/** Runs a command from the command palette: types its name, moves down `skip` matches, presses Enter. */
async function paletteCommand(name: string, skip = 0): Promise<void> {
  await act([
    "pyautogui.hotkey('ctrl', 'shift', 'p')",
    'time.sleep(2)',
    `pyautogui.write(${JSON.stringify(name)}, interval=0.03)`,
    'time.sleep(2)',
    ...Array.from({ length: skip }, () => "pyautogui.press('down')"),
    "pyautogui.press('enter')",
    'time.sleep(3)',
  ].join('\n'));
}

async function readJson(file: string): Promise<unknown> {
  return JSON.parse(await sh(`cat ${file}`));
}

test('settings and keybindings edited through the UI land in ~/.config/Code/User, and VS Code applies the keybinding', { timeout: 300_000 }, async () => {
  await sh('mkdir -p ~/prefs && printf "x = 1\\n" > ~/prefs/main.py');
  await desktop.client.launch('cd ~/prefs && code . main.py', true);
  await waitForTitle('main.py - prefs - Visual Studio Code');
  await act('time.sleep(5)'); // the workbench restores its editors and focus after the title is set

  // Settings: the JSON editor the command palette opens, a new first entry, Ctrl+S.
  await paletteCommand('Preferences: Open User Settings (JSON)');
  await waitForTitle('settings.json - prefs - Visual Studio Code'); // in a tab, as VS Code opens it (not a modal)
  await act([
    "pyautogui.hotkey('ctrl', 'home')",
    "pyautogui.press('end')",
    "pyautogui.press('enter')",
    // The value first, then the key before it: typing the colon after a key would commit a suggestion.
    "pyautogui.write(': 17,', interval=0.05)",
    "pyautogui.press('home')",
    'pyautogui.write(\'"editor.fontSize"\', interval=0.05)',
    "pyautogui.hotkey('ctrl', 's')",
    'time.sleep(2)',
  ].join('\n'));
  const settings = await until('settings.json saved', async () => {
    const parsed = (await readJson('~/.config/Code/User/settings.json').catch(() => ({}))) as Record<string, unknown>;
    return parsed['editor.fontSize'] === 17 ? parsed : undefined;
  }, 30_000);
  expect(settings['telemetry.telemetryLevel']).toBe('off'); // the image's own settings kept

  // Keybindings: the JSON editor (the second match; "Open Default Keyboard Shortcuts (JSON)" comes first).
  await paletteCommand('Preferences: Open Keyboard Shortcuts (JSON)', 1);
  await waitForTitle('keybindings.json - prefs - Visual Studio Code');
  await act([
    "pyautogui.hotkey('ctrl', 'a')",
    "pyautogui.press('delete')",
    'pyautogui.write(\'[{"key": "ctrl+alt+9", "command": "workbench.action.files.newUntitledFile"}]\', interval=0.03)',
    "pyautogui.hotkey('ctrl', 's')",
    'time.sleep(2)',
  ].join('\n'));
  const bindings = await until('keybindings.json saved', async () => {
    const parsed = (await readJson('~/.config/Code/User/keybindings.json').catch(() => [])) as { key: string; command: string }[];
    return parsed.length === 1 ? parsed : undefined;
  }, 30_000);
  expect(bindings).toEqual([{ key: 'ctrl+alt+9', command: 'workbench.action.files.newUntitledFile' }]);
  // VS Code took it: the new key opens an untitled editor.
  await act("pyautogui.hotkey('ctrl', 'alt', '9')");
  await waitForTitle('Untitled-1 - prefs - Visual Studio Code');
});

test('a second `code` opens a notebook in a window of its own; Notebook: Run All runs its cells on the kernel and Ctrl+S saves the outputs', { timeout: 360_000 }, async () => {
  const cell = (source: string) => ({ cell_type: 'code', execution_count: null, metadata: {}, outputs: [], source: [source] });
  const notebook = {
    cells: [cell('import numpy as np\nprint(np.arange(4).sum())'), cell('6 * 7')],
    metadata: { kernelspec: { display_name: 'Python 3', language: 'python', name: 'python3' } },
    nbformat: 4,
    nbformat_minor: 5,
  };
  await desktop.client.upload('/home/user/nb/calc.ipynb', Buffer.from(JSON.stringify(notebook)));
  // A first window, then the notebook's: the second `code` finds the server running (the first did not keep its lock).
  await sh('mkdir -p ~/first');
  await desktop.client.launch('cd ~/first && code .', true);
  // A folder with nothing open shows VS Code's welcome page, as OSWorld's VS Code does.
  await waitForTitle('Welcome - first - Visual Studio Code');
  await desktop.client.launch('cd ~/nb && code . calc.ipynb', true);
  await waitForTitle('calc.ipynb - nb - Visual Studio Code');
  const titles = (await windows()).map((w) => w.title);
  expect(titles, JSON.stringify(titles)).toContain('Welcome - first - Visual Studio Code');
  await act('time.sleep(5)');
  await paletteCommand('Notebook: Run All');
  type Saved = { cells: { execution_count: number | null; outputs: { output_type: string; text?: string[]; data?: Record<string, string[]> }[] }[] };
  // Save until the file holds both cells' outputs (the kernel starts on the first run, which takes a few seconds).
  const saved = await until('the notebook saved with its outputs', async () => {
    await act("pyautogui.hotkey('ctrl', 's')\ntime.sleep(2)");
    const parsed = (await readJson('~/nb/calc.ipynb')) as Saved;
    return parsed.cells.every((c) => c.outputs.length > 0) ? parsed : undefined;
  }, 180_000);
  expect(saved.cells.map((c) => c.execution_count)).toEqual([1, 2]);
  expect(saved.cells[0].outputs).toMatchObject([{ output_type: 'stream', text: ['6\n'] }]);
  expect(saved.cells[1].outputs).toMatchObject([{ output_type: 'execute_result', data: { 'text/plain': ['42'] } }]);
});

test('`code` with no folder opens the Welcome page on its main page and the Manage menu as OSWorld\'s VM shows them', { timeout: 240_000 }, async () => {
  await desktop.client.launch('code', true);
  await waitForTitle('Welcome - Visual Studio Code');
  // The main page (Start: New File…, Open File…; Walkthroughs), not the first walkthrough a first session opens.
  const tree = await treeWith('the Welcome page in the accessibility tree', 'Editing evolved', 90_000);
  expect(tree).toContain('New File...');
  expect(tree).not.toContain('Choose your theme'); // the first step of the walkthrough a first session opens
  expect(tree).toContain('You have not yet opened a folder'); // the Explorer's side bar, open as on OSWorld's VM
  // With the side bar 256 px wide, New File... sits where agents on OSWorld's VM click it.
  await act('pyautogui.click(672, 407)');
  await treeWith('the New File... quick pick', 'Select File Type or Enter File Name');
  await act("pyautogui.press('escape')\ntime.sleep(1)");
  // File > Preferences lists User Tasks above Theme, as the desktop's does: Theme sits where Doubao-1.5 clicks it.
  await act('pyautogui.click(90, 70)\ntime.sleep(1.5)\npyautogui.click(144, 534)\ntime.sleep(1.5)\npyautogui.click(487, 680)');
  await treeWith('the Theme submenu', 'File Icon Theme');
  await act("pyautogui.press('escape')\ntime.sleep(0.5)\npyautogui.press('escape')\ntime.sleep(0.5)\npyautogui.press('escape')\ntime.sleep(1)");
  // The Manage (gear) menu ends as the desktop VS Code's, so its rows sit where agents on OSWorld's VM click them:
  // the gear at (90, 1031), then Settings at (192, 848).
  await act('pyautogui.click(90, 1031)');
  const menu = await treeWith('the Manage menu', 'Check for Updates...');
  expect(menu).toContain('Backup and Sync Settings...');
  await act('pyautogui.click(192, 848)');
  await waitForTitle('Settings - Visual Studio Code');
});
