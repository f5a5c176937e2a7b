// Typing through the clipboard, as OSWorld's UI-TARS and Doubao agents type every text: one step runs
// `pyperclip.copy(text)` then Ctrl+V (in a terminal Ctrl+Shift+V), in a `python -c` of its own that exits at once, so
// the text must stay served after it has gone (xclip's background process, as on OSWorld's VM). Each app gets the
// text through its own paste, and shows it (its accessibility tree, or the file it saves). One desktop for the file.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { endProcesses } from '../../src/desktop/end-processes.ts';
import { settleDesktop } from '../../src/desktop/settle.ts';
import { mainWindowOf, waitForWindow } from '../../src/fidelity/measure.ts';
import { type TestDesktop, takeDesktop } from '../helpers/desktops.ts';
import { until } from './until.ts';

let desktop: TestDesktop;
beforeAll(async () => {
  desktop = await takeDesktop();
});
afterAll(async () => {
  await desktop?.stop();
});

/** One agent step: pyautogui code run as OSWorld runs it (`python -c "import pyautogui; import time; …"`). */
async function step(code: string): Promise<void> {
  const result = await desktop.client.execute(['python', '-c', `import pyautogui; import time; pyautogui.FAILSAFE = False; ${code}`]);
  expect(result.returncode, result.error).toBe(0);
}

/** The step UI-TARS's OSWorld adapter emits to type `text`, its 0.5 s sleep too. */
const pasteStep = (text: string, keys = "'ctrl', 'v'") => step(`import pyperclip; pyperclip.copy(${JSON.stringify(text)}); pyautogui.hotkey(${keys}); time.sleep(0.5)`);

async function open(command: string, wmClass: RegExp): Promise<void> {
  await desktop.client.launch(command, true);
  expect(await waitForWindow(desktop.client, mainWindowOf(wmClass), 90_000), `a window of ${command}`).not.toBeNull();
  // The window takes the keyboard focus a moment after it maps (seconds, on a loaded host): the paste goes to whoever
  // has it.
  await until(`${command}'s window focused`, async () => {
    const focused = await desktop.client.execute('xprop -id "$(xdotool getactivewindow)" WM_CLASS', { shell: true });
    return (/"([^"]*)"$/.exec(focused.output.trim())?.[1] ?? '').match(wmClass) !== null;
  }, 30_000);
  // An agent's first step comes after the run's settling wait (settleAfterSetup): an app still loading drops keys. On
  // a loaded host Writer mapped its window and took the focus while its document could not take a paste yet. Settling
  // after the focus came leaves nothing to wait for: the app is idle with the focus.
  await settleDesktop(desktop.client, { maxSeconds: 60 });
}

/** Ends the app and waits until its processes are gone, so the next test's app opens on a desktop without it. */
async function close(pattern: string): Promise<void> {
  await endProcesses(desktop.client, pattern, { match: 'command line', waitSeconds: 5 });
}

/** Waits until the accessibility tree shows the text (the app's own paste put it there). */
const shows = (text: string) => until(`the pasted text in the accessibility tree`, async () => (await desktop.client.accessibilityTree()).includes(text), 30_000);

test('the clipboard outlives the step that copied it: a later step reads it back', async () => {
  await step("import pyperclip; pyperclip.copy('kept after exit ✓')");
  const read = await desktop.client.execute(['python', '-c', 'import pyperclip; print(pyperclip.paste())']);
  expect(read.output.trim()).toBe('kept after exit ✓');
});

test("GNOME Shell's search: Activities, a click in the search box, then Ctrl+V", async () => {
  // Fixed pauses: nothing cheap shows the overview's opening done (the shell's D-Bus OverviewActive is true from its
  // start, and one read of the tree takes longer than 2 s on a loaded host).
  await step('pyautogui.click(37, 10); time.sleep(2); pyautogui.click(995, 70); time.sleep(0.5)');
  try {
    await pasteStep('pasted-in-shell-search');
    await shows('pasted-in-shell-search');
  } finally {
    // Left open, the overview keeps the focus from every window the next tests open (one CI run failed them all so).
    await step("pyautogui.press('esc'); time.sleep(0.3); pyautogui.press('esc')");
  }
});

test('a GTK app (gedit)', async () => {
  await open('gedit', /^gedit$/i);
  await pasteStep('pasted-in-gedit');
  await shows('pasted-in-gedit');
  await close('gedi[t]');
});

test("Chrome's address bar", async () => {
  await open('google-chrome --remote-debugging-port=1337', /^google-chrome$/i);
  await pasteStep('pasted-in-chrome');
  await shows('pasted-in-chrome');
  await close('chrom[e]');
});

test('LibreOffice Writer', async () => {
  await open('libreoffice --writer', /^libreoffice-writer$/i);
  await pasteStep('pasted-in-writer');
  await shows('pasted-in-writer');
  await close('soffic[e]');
});

test('the terminal, with Ctrl+Shift+V', async () => {
  await open('gnome-terminal', /^gnome-terminal$/i);
  // Pasted once its shell prompts (a CI run under load pasted into a terminal whose shell had not started: the text
  // never showed).
  await until('the terminal focused, its shell prompting', async () => (await desktop.client.terminalOutput())?.trimEnd().endsWith('$'));
  await pasteStep('echo pasted-in-$((20+3))-terminal', "'ctrl', 'shift', 'v'");
  await step("pyautogui.press('enter')");
  await shows('pasted-in-23-terminal');
  await close('gnome-terminal-serve[r]');
});

test('VS Code: a click into the editor, then Ctrl+V (it saves what was pasted)', async () => {
  await desktop.client.execute('printf "" > /tmp/pasted.txt', { shell: true });
  await open('code /tmp/pasted.txt', /^code$/i);
  // The editor takes the focus once the workbench has loaded the file: its text area, an entry named after the file,
  // is focused in the tree then. The click and the keys after it reach it in order.
  await until("VS Code's editor of pasted.txt focused", async () => /<entry name="pasted\.txt"[^>]*st:focused="true"/.test(await desktop.client.accessibilityTree()), 90_000);
  await step('pyautogui.click(900, 400)'); // into the editor, as an agent clicks before it types
  await pasteStep('pasted-in-vscode');
  await step("pyautogui.hotkey('ctrl', 's')");
  const saved = await until('the file saved', async () => {
    const content = (await desktop.client.readFile('/tmp/pasted.txt'))?.toString('utf8');
    return content?.includes('pasted-in-vscode') && content;
  });
  expect(saved).toBe('pasted-in-vscode');
  await close('code-windo[w]');
});
