// The apps inside the desktop, driven through the control server the way OSWorld tasks and agents drive them
// (one container for this file; each test opens its own app and file).
import { DOMParser } from '@xmldom/xmldom';
import { afterAll, beforeAll, expect, onTestFinished, test } from 'vitest';
import { endProcesses } from '../../src/desktop/end-processes.ts';
import { settleDesktop } from '../../src/desktop/settle.ts';
import { type TestDesktop, takeDesktop } from '../helpers/desktops.ts';
import { until } from './until.ts';

let desktop: TestDesktop;
beforeAll(async () => {
  desktop = await takeDesktop();
});
afterAll(async () => {
  await desktop?.stop();
});

/** Writes an office file with the desktop's own LibreOffice (a separate profile, so the user's stays untouched). */
async function convert(source: string, target: string, format: string): Promise<void> {
  const dir = target.slice(0, target.lastIndexOf('/'));
  const result = await desktop.client.execute(
    `soffice -env:UserInstallation=file:///tmp/lo-convert --headless --convert-to ${format} --outdir ${dir} ${source}`,
    { shell: true },
  );
  expect(result.returncode, result.error).toBe(0);
}

function parseTree(xml: string) {
  const doc = new DOMParser().parseFromString(xml, 'text/xml');
  return doc.documentElement!;
}

test('launching Chromium (as google-chrome, with the socat bridge) puts it in the accessibility tree and on CDP', async () => {
  await desktop.client.launch(['google-chrome', '--remote-debugging-port=1337', 'data:text/html,<h1>Deskbench heading</h1>']);
  await desktop.client.launch('socat tcp-listen:9222,fork tcp:localhost:1337', true);
  // Wait on the same conditions the assertions check (parsed, not substrings): under load the page's nodes can
  // appear in the tree a moment after the application's.
  const chromiumWithPage = (xml: string) => {
    const root = parseTree(xml);
    const chromium = Array.from(root.getElementsByTagName('application')).find((app) => app.getAttribute('name') === 'Chromium');
    const page = chromium && Array.from(chromium.getElementsByTagName('*')).find(
      (e) => e.getAttribute('name') === 'Deskbench heading' || e.textContent === 'Deskbench heading',
    );
    return { root, chromium, page };
  };
  const xml = await until('Chromium and its page in the accessibility tree', async () => {
    const tree = await desktop.client.accessibilityTree();
    return chromiumWithPage(tree).page ? tree : undefined;
  }, 60_000);
  const { root, chromium, page } = chromiumWithPage(xml);
  expect(root.tagName).toBe('desktop-frame');
  expect(root.getAttribute('xmlns:st')).toBe('https://accessibility.ubuntu.example.org/ns/state');
  expect(chromium).toBeDefined();
  const frame = chromium!.getElementsByTagName('frame')[0];
  expect(frame.getAttributeNS('https://accessibility.ubuntu.example.org/ns/state', 'showing')).toBe('true');
  expect(frame.getAttributeNS('https://accessibility.ubuntu.example.org/ns/component', 'screencoord')).toMatch(/^\(\d+, \d+\)$/);
  // The page itself is exposed (--force-renderer-accessibility), not only the browser frame.
  expect(page).toBeDefined();
  expect(chromium!.getElementsByTagName('heading').length).toBeGreaterThan(0);

  const version = await until('CDP through socat', async () => {
    const response = await fetch(`${desktop.cdp.url}/json/version`, { headers: desktop.cdp.headers }).catch(() => undefined);
    return response?.ok ? ((await response.json()) as { Browser: string }) : undefined;
  });
  expect(version.Browser).toMatch(/^Chrome\//);
  await desktop.client.execute(['pkill', '-f', 'chromium']);
});

test('Chrome searches with Google from the address bar, as Chrome does (Debian\'s Chromium would use DuckDuckGo)', { timeout: 180_000 }, async () => {
  // The image's profile holds only the search engine (docker/desktop/config/home/user/.config/google-chrome).
  // Chrome ended (the first test's), so this launch starts a browser with the debugging port, not a tab in that one.
  await endProcesses(desktop.client, 'chrome');
  await desktop.client.launch(['google-chrome', '--remote-debugging-port=1337', 'about:blank']);
  const tabs = async () => JSON.parse((await desktop.client.execute(['curl', '-s', 'http://127.0.0.1:1337/json/list'])).output || '[]') as { type: string; url: string }[];
  await until('Chrome on its debugging port', async () => (await tabs()).some((tab) => tab.type === 'page'), 60_000);
  await until('Chrome focused', async () => (await desktop.client.execute('xdotool getactivewindow getwindowname', { shell: true })).output.includes('Chromium'));
  await desktop.client.runPython("import pyautogui\npyautogui.hotkey('ctrl', 'l')\npyautogui.write('deskbench query\\n', interval=0.02)");
  const page = await until('the search page', async () => (await tabs()).find((tab) => tab.type === 'page' && tab.url.includes('search')), 30_000);
  expect(page.url).toMatch(/^https:\/\/www\.google\.com\/search\?q=deskbench\+query/);
  // OSWorld's get_default_search_engine reads the profile's entry (short_name, "Google" when absent).
  const preferences = JSON.parse((await desktop.client.readFile('/home/user/.config/google-chrome/Default/Preferences'))?.toString('utf8') ?? '{}');
  expect(preferences.default_search_provider_data?.template_url_data?.short_name ?? 'Google').toBe('Google');
  await desktop.client.execute(['pkill', '-f', 'chromium']);
});

// 120 s: Chrome's window (up to 60 s) and the desktop settling after it (up to 15 s) do not fit the project's 60 s test
// timeout under load.
test('a fresh Chrome left alone writes no site-setting defaults (OSWorld reads them as the user having changed them)', { timeout: 120_000 }, async () => {
  // data_delete_automacally (chrome 99146c54) is "true" as soon as Preferences has profile.default_content_setting_values.
  await endProcesses(desktop.client, 'chrome');
  await desktop.client.execute('rm -rf ~/.config/google-chrome/Default "$HOME/.config/google-chrome/Local State"', { shell: true });
  await desktop.client.launch(['google-chrome']);
  await until("Chrome's window", async () => (await desktop.client.execute(['wmctrl', '-lx'])).output.includes('google-chrome'), 60_000);
  // Its start-up work done (Chromium 156 recorded its Local Network Access migration there before its window showed).
  await settleDesktop(desktop.client, { maxSeconds: 15 });
  // Chrome writes Preferences 10 s after a change (its pref store batches writes) and at once when it exits: ended as
  // OSWorld's tasks end it (`pkill chrome`), it has written all it holds, with nothing done to it in between.
  expect(await endProcesses(desktop.client, 'chrome'), 'Chrome exited within 10 s of pkill').toBe(true);
  const preferences = JSON.parse((await desktop.client.readFile('/home/user/.config/google-chrome/Default/Preferences'))?.toString('utf8') ?? '{}');
  expect(preferences.profile?.created_by_version, 'Chrome has written its Preferences').toBeTruthy();
  expect(preferences.profile).not.toHaveProperty('default_content_setting_values');
});

test('opening a .docx shows a Writer window with that name; Ctrl+S saves it as .docx without asking, as on OSWorld\'s VM', async () => {
  await desktop.client.execute('mkdir -p /tmp/src && printf "Quarterly report\\n" > /tmp/src/quarterly.txt', { shell: true });
  await convert('/tmp/src/quarterly.txt', '/home/user/Documents/quarterly.docx', 'docx');
  onTestFinished(async () => {
    await desktop.client.execute(['pkill', '-f', 'soffice']); // also when an assertion failed: the next test types
  });
  await desktop.client.openFile('/home/user/Documents/quarterly.docx', 60_000);
  // open_file returns on the first window whose title holds the name, as OSWorld's does; under load Writer may
  // still be titling its frame then, so wait for the final title before checking it.
  const line = await until('the Writer window titled with the file', async () => {
    const windows = await desktop.client.execute(['wmctrl', '-lx']);
    return windows.output.split('\n').find((l) => l.includes('quarterly.docx - LibreOffice Writer'));
  }, 60_000);
  expect(line).toContain('libreoffice-writer');
  expect(line).toContain('quarterly.docx - LibreOffice Writer');
  const active = await desktop.client.execute('xdotool getactivewindow getwindowname', { shell: true });
  expect(active.output).toContain('quarterly.docx');
  // Writer opens maximized (not as the tiny window a fresh profile gets under openbox).
  const size = await desktop.client.windowSize('libreoffice-writer');
  expect(size!.width).toBeGreaterThan(1000);
  await expect(desktop.client.openFile('/home/user/Documents/missing.docx', 2_000)).rejects.toMatchObject({ status: 404 });
  // OSWorld's evaluators save with a bare Ctrl+S (their postconfig) and read the file: on the VM LibreOffice keeps the
  // format without its "Keep current format" question (docs/desktop.md, "LibreOffice saves without asking").
  // Writer titles its window before the document takes keys: on a loaded host keys typed at once were lost (CI), so
  // type once the desktop is idle, and again while the line does not show in Writer.
  await settleDesktop(desktop.client, { maxSeconds: 30 });
  await until('the typed line in Writer', async () => {
    await desktop.client.execute(['python', '-c', "import pyautogui; pyautogui.hotkey('ctrl', 'end'); pyautogui.typewrite('Saved by Ctrl+S')"]);
    return until('the line on screen', async () => (await desktop.client.accessibilityTree()).includes('Saved by Ctrl+S'), 10_000).catch(() => false);
  }, 60_000);
  const saved = await desktop.client.execute(['python', '-c', "import pyautogui; pyautogui.hotkey('ctrl', 's')"]);
  expect(saved.returncode, saved.error).toBe(0);
  const savedText = async () => (await desktop.client.execute('unzip -p /home/user/Documents/quarterly.docx word/document.xml', { shell: true })).output;
  await until('the typed line saved into the .docx', async () => (await savedText()).includes('Saved by Ctrl+S'), 30_000);
  const windows = (await desktop.client.execute(['wmctrl', '-l'])).output;
  expect(windows).not.toMatch(/Keep current format|Use Word 2007/);
  expect(windows).toContain('quarterly.docx - LibreOffice Writer');
});

/** Opens an empty /tmp/<name> in gedit and waits until gedit has the focus: keys sent anywhere else would land in another app. */
async function focusedGedit(name: string): Promise<void> {
  await closeGedit();
  await desktop.client.execute(['touch', `/tmp/${name}`]);
  await desktop.client.launch(['gedit', '--new-window', `/tmp/${name}`]);
  await until('gedit window', async () => (await desktop.client.execute(['wmctrl', '-l'])).output.includes(name));
  await desktop.client.activateWindow({ window_name: name });
  await until('gedit focused', async () => (await desktop.client.execute('xdotool getactivewindow getwindowname', { shell: true })).output.includes(name));
}

const clipboard = async () => (await desktop.client.execute(['xclip', '-o', '-selection', 'clipboard'])).output;

/** The clipboard once it holds something other than `before`: an app's Ctrl+C has reached it. */
const clipboardChangedFrom = (before: string) =>
  until('the copy on the clipboard', async () => {
    const now = await clipboard();
    return now !== before && now;
  });

/**
 * Ends gedit and waits until its process is gone: gedit is single-instance, so a `gedit --new-window` launched while the
 * last one is still exiting hands its file to the dying instance and no window appears (a CI run timed out so).
 */
async function closeGedit(): Promise<void> {
  await endProcesses(desktop.client, 'gedit', { match: 'exact name' });
}

test('pyautogui types every printable character exactly into a text editor', async () => {
  await focusedGedit('typed.txt');
  const before = await clipboard();
  const text = 'Hello <World> {x|y} ~`!';
  const code = [
    'import pyautogui',
    `pyautogui.typewrite(${JSON.stringify(text)} + "\\n", interval=0.01)`,
    'pyautogui.write("sum(a[i]) = 100% & \\"ok\\"; \'q\' ^ $5 #@+=_\\\\/?.,:")',
    "pyautogui.hotkey('ctrl', 'a')",
    "pyautogui.hotkey('ctrl', 'c')",
  ].join('; ');
  const typed = await desktop.client.execute(['python', '-c', code]);
  expect(typed.returncode, typed.error).toBe(0);
  expect(await clipboardChangedFrom(before)).toBe(`${text}\nsum(a[i]) = 100% & "ok"; 'q' ^ $5 #@+=_\\/?.,:`);
  const position = await desktop.client.execute(['python', '-c', 'import pyautogui; pyautogui.moveTo(300, 200); print(tuple(pyautogui.position()), tuple(pyautogui.size()))']);
  expect(position.output).toBe('(300, 200) (1920, 1080)\n');
  await closeGedit();
});

test('characters missing from the keyboard map arrive as themselves, over more steps than there are spare keycodes', { timeout: 180_000 }, async () => {
  await focusedGedit('accents.txt');
  const before = await clipboard();
  // One process per character, as an agent's steps are: each binds a spare keycode the earlier ones may hold.
  const characters = [...'éüñø€—ßçåłžœæ¿¡ğışđčřůőűŋħĸŧ'];
  for (const character of characters) {
    const typed = await desktop.client.execute(['python', '-c', `import pyautogui; pyautogui.write(${JSON.stringify(character)})`]);
    expect(typed.returncode, `${character}: ${typed.error}`).toBe(0);
  }
  // And one process typing them all again, the first ones after their keycodes went to later ones.
  const again = characters.join('') + characters.slice(0, 3).join('');
  await desktop.client.execute(['python', '-c', `import pyautogui; pyautogui.write(${JSON.stringify(again)}); pyautogui.hotkey('ctrl', 'a'); pyautogui.hotkey('ctrl', 'c')`]);
  expect(await clipboardChangedFrom(before)).toBe(characters.join('') + again);
  await closeGedit();
});

test('a Calc window with a 10,000-row sheet gives a bounded tree with the cells on screen', async () => {
  const csv = ['id,name,value', ...Array.from({ length: 10_000 }, (_, i) => `${i},row${i},${i * 3}`)].join('\n');
  await desktop.client.upload('/tmp/src/big.csv', Buffer.from(csv));
  await convert('/tmp/src/big.csv', '/home/user/Documents/big.xlsx', 'xlsx');
  await desktop.client.openFile('/home/user/Documents/big.xlsx', 60_000);
  const response = await until('the sheet in the tree', async () => {
    const r = await desktop.client.request('GET', '/accessibility');
    const body = (await r.json()) as { AT: string };
    return body.AT.includes('<table-cell') ? { body, nodes: Number(r.headers.get('x-deskbench-a11y-nodes')) } : undefined;
  });
  const root = parseTree(response.body.AT);
  const cells = Array.from(root.getElementsByTagName('table-cell'));
  // The sheet reports 2^31 cells; only those on screen (a few dozen rows) are read.
  expect(cells.length).toBeGreaterThan(100);
  expect(cells.length).toBeLessThanOrEqual(4096);
  expect(response.nodes).toBeLessThanOrEqual(10_000);
  const names = new Set(cells.map((c) => c.getAttribute('name')));
  expect(names.has('A1')).toBe(true);
  expect(names.has('A1000')).toBe(false);
  expect(cells.find((c) => c.getAttribute('name') === 'B2')?.textContent).toBe('row0');
  await desktop.client.execute(['pkill', '-f', 'soffice']);
}, 180_000); // a conversion, then a cold Calc start with the sheet: beyond the default 60 s on a busy machine

test('the terminal endpoint reads the focused gnome-terminal', async () => {
  expect(await desktop.client.terminalOutput()).toBeNull();
  await desktop.client.launch(['gnome-terminal']);
  await until('terminal window', async () => (await desktop.client.execute(['wmctrl', '-lx'])).output.includes('gnome-terminal'));
  // Typed once the terminal has the focus and its shell has prompted (the endpoint reads only a focused terminal).
  await until('the terminal focused, its shell prompting', async () => (await desktop.client.terminalOutput())?.trimEnd().endsWith('$'));
  await desktop.client.execute(['python', '-c', 'import pyautogui; pyautogui.write("echo deskbench-$((40+2))\\n")']);
  const output = await until('terminal text', async () => {
    const text = await desktop.client.terminalOutput();
    return text?.includes('deskbench-42') ? text : undefined;
  });
  expect(output).toContain('echo deskbench-$((40+2))');
  expect(output).toBe(output.trimEnd());
});

test("VLC's HTTP interface answers through the token-guarded front, with the desktop's own VLC password", async () => {
  await desktop.client.launch('vlc --no-audio --no-video-title-show', true);
  const status = await until('VLC HTTP interface', async () => {
    const response = await fetch(`${desktop.vlc.url}/requests/status.xml`, { headers: desktop.vlc.headers }).catch(() => undefined);
    return response?.ok ? await response.text() : undefined;
  });
  expect(status).toContain('<state>');
  // Without the token the front refuses; inside the desktop, OSWorld's fixed password no longer opens VLC.
  expect((await fetch(`${desktop.vlc.url}/requests/status.xml`)).status).toBe(401);
  const withFixedPassword = await desktop.client.execute(['curl', '-s', '-o', '/dev/null', '-w', '%{http_code}', '-u', ':password', 'http://127.0.0.1:8080/requests/status.xml']);
  expect(withFixedPassword.output).toBe('401');
  const windows = await desktop.client.execute(['wmctrl', '-l']);
  expect(windows.output).not.toMatch(/Privacy|Network Access/i);
});
