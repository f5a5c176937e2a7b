// The GNOME desktop OSWorld's tasks were written for, on a real container: the shell and its dock, the keys, the
// Settings app, sound, the time zone mechanism, Google Chrome as `pkill chrome` sees it, default apps, and every
// program the desktop's table says the image provides (one container for this file).
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type TestDesktop, takeDesktop } from '../helpers/desktops.ts';
import { until } from './until.ts';
import { LACKS_ON_PURPOSE, PROVIDED_COMMANDS } from '../../src/desktop/provided-commands.ts';

let desktop: TestDesktop;
beforeAll(async () => {
  desktop = await takeDesktop();
});
afterAll(async () => {
  await desktop?.stop();
});

async function sh(command: string): Promise<{ output: string; error: string; returncode: number }> {
  return desktop.client.execute(command, { shell: true });
}

/** `wmctrl -lx` lines (id, desktop, WM_CLASS, host, title). */
async function windows(): Promise<string[]> {
  return (await sh('wmctrl -lx')).output.split('\n').filter(Boolean);
}

/** Names of the push buttons GNOME Shell shows (top bar and dock) in the accessibility tree. */
async function shellButtons(): Promise<string[]> {
  const tree = await desktop.client.accessibilityTree();
  const shell = tree.slice(tree.search(/<application[^>]* name="gnome-shell"/));
  return [...shell.matchAll(/<push-button name="([^"]+)"/g)].map((match) => match[1]);
}

// First in the file: the desktop has just said it is ready, as when an agent presses the key at its first step.
test('Ctrl+Alt+T, pressed once as soon as the desktop is ready, opens a gnome-terminal window', async () => {
  await desktop.client.execute(['python', '-c', "import pyautogui; pyautogui.hotkey('ctrl', 'alt', 't')"]);
  const line = await until('a terminal window', async () => (await windows()).find((w) => /gnome-terminal/i.test(w)), 30_000);
  expect(line).toMatch(/user@/);
  await sh('pkill -f gnome-terminal-server');
});

test('Ctrl+Alt+T right after a character the keyboard lacks still opens a terminal: the shim waits until the shell has re-taken its keys', async () => {
  // pyautogui binds a spare keycode for such a character; mutter then reloads its keymap and grabs, which the shell
  // extension counts in /tmp/deskbench/keymap-changes.
  const reloads = async () => Number((await sh('cat /tmp/deskbench/keymap-changes 2>/dev/null || echo 0')).output.trim());
  // By window id, not by count: the terminal the test before closed can still be listed while it goes away.
  const terminals = async () => (await windows()).filter((w) => /gnome-terminal/i.test(w)).map((w) => w.split(/\s+/)[0]);
  const before = await reloads();
  for (const character of ['é', 'ł', '€']) {
    const open = new Set(await terminals());
    await desktop.client.execute(['python', '-c', `import pyautogui; pyautogui.write(${JSON.stringify(character)}); pyautogui.hotkey('ctrl', 'alt', 't')`]);
    await until(`a new terminal after typing ${character}`, async () => (await terminals()).some((id) => !open.has(id)), 30_000);
  }
  expect(await reloads()).toBeGreaterThanOrEqual(before + 3);
  await sh('pkill -f gnome-terminal-server');
});

test('GNOME Shell runs: org.gnome.Shell is on the session bus, the desktop (not the overview) is shown, the shell is in the accessibility tree', async () => {
  const owner = await sh('gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus --method org.freedesktop.DBus.NameHasOwner org.gnome.Shell');
  expect(owner.output.trim()).toBe('(true,)');
  const overview = await sh('gdbus call --session --dest org.gnome.Shell --object-path /org/gnome/Shell --method org.freedesktop.DBus.Properties.Get org.gnome.Shell OverviewActive');
  expect(overview.output.trim()).toBe('(<false>,)');
  const version = await sh('gnome-shell --version');
  expect(version.output).toMatch(/^GNOME Shell 43\./);
  const tree = await desktop.client.accessibilityTree();
  expect(tree).toMatch(/<application[^>]* name="gnome-shell"/);
});

test("the dock: dash-to-dock is active, on the left, showing OSWorld's favourite apps", async () => {
  const info = await sh('gdbus call --session --dest org.gnome.Shell --object-path /org/gnome/Shell --method org.gnome.Shell.Extensions.GetExtensionInfo dash-to-dock@micxgx.gmail.com');
  expect(info.output).toContain("'state': <1.0>"); // ENABLED
  const position = await sh('gsettings get org.gnome.shell.extensions.dash-to-dock dock-position');
  expect(position.output.trim()).toBe("'LEFT'");
  // In OSWorld-Verified's order (Terminal pinned after Files, as its screenshots of July 2025 show).
  const favourites = await sh('gsettings get org.gnome.shell favorite-apps');
  expect(favourites.output.trim()).toBe(
    "['google-chrome.desktop', 'thunderbird.desktop', 'code.desktop', 'vlc.desktop', 'libreoffice-writer.desktop', " +
      "'libreoffice-calc.desktop', 'libreoffice-impress.desktop', 'gimp.desktop', 'org.gnome.Nautilus.desktop', " +
      "'org.gnome.Terminal.desktop', 'snap-store_ubuntu-software.desktop', 'yelp.desktop']",
  );
  // The dock draws one button per favourite whose .desktop file exists, named after the app.
  const buttons = await shellButtons();
  expect(buttons).toEqual(expect.arrayContaining([
    'Google Chrome', 'Thunderbird', 'VLC media player', 'LibreOffice Writer', 'LibreOffice Calc', 'LibreOffice Impress',
    'GNU Image Manipulation Program', 'Files', 'Terminal', 'Visual Studio Code', 'Ubuntu Software', 'Help',
  ]));
});

test("Vim can be pinned: favourites holding vim.desktop (as OSWorld's remove-vim-from-favorites task sets them) show a Vim button in the dock", async () => {
  await sh(`gsettings set org.gnome.shell favorite-apps "['thunderbird.desktop', 'vim.desktop', 'google-chrome.desktop']"`);
  try {
    const buttons = await until('a Vim button in the dock', async () => {
      const names = await shellButtons();
      return names.includes('Vim') && names;
    });
    expect(buttons).toEqual(expect.arrayContaining(['Thunderbird', 'Vim', 'Google Chrome']));
  } finally {
    await sh('gsettings reset org.gnome.shell favorite-apps');
  }
});

test('the Settings app (gnome-control-center) opens a window', async () => {
  await desktop.client.launch(['gnome-control-center', 'sound']);
  const line = await until('the Settings window', async () => (await windows()).find((w) => /gnome-control-center/i.test(w)), 60_000);
  expect(line).toMatch(/Settings|Sound/);
  await sh('pkill -x gnome-control-c');
});

test('sound: pactl talks to a running PulseAudio with a null sink at half volume', async () => {
  const info = await sh('pactl info');
  expect(info.returncode, info.error).toBe(0);
  expect(info.output).toMatch(/Default Sink: speakers/);
  // OSWorld's volume task reads the volume this way (after `pulseaudio --start`, which must not fail).
  const volume = await sh("pulseaudio --start\npactl list sinks | grep '^[[:space:]]Volume:' | head -n 1 | awk '{print $5}' | sed 's/%//g'");
  expect(volume.output.trim()).toBe('50');
});

test('time zone: timedatectl shows the zone and sets it through systemd-timedated (as OSWorld’s is_utc_0 reads it)', async () => {
  const before = await sh('timedatectl status');
  expect(before.returncode, before.error).toBe(0);
  expect(before.output).toMatch(/Time zone: Asia\/Hong_Kong \(HKT, \+0800\)/);
  const set = await sh('timedatectl set-timezone Etc/UTC');
  expect(set.returncode, set.error).toBe(0);
  const after = await sh('timedatectl status');
  expect(after.output).toMatch(/Time zone: Etc\/UTC \(UTC, \+0000\)/);
  expect((await sh('date +%z')).output.trim()).toBe('+0000');
  await sh('timedatectl set-timezone Asia/Hong_Kong');
});

test('google-chrome starts a browser whose processes `pkill chrome` stops, with its profile in ~/.config/google-chrome', async () => {
  await desktop.client.launch(['google-chrome', '--remote-debugging-port=1337', 'about:blank']);
  await until('the chrome process', async () => (await sh('pgrep -x chrome')).returncode === 0);
  await until('the profile', async () => (await sh('test -f ~/.config/google-chrome/Local\\ State')).returncode === 0);
  const killed = await sh('pkill chrome');
  expect(killed.returncode).toBe(0);
  await until('every browser process gone', async () => (await sh('pgrep chrome')).returncode === 1, 15_000);
});

test('VLC is not the default video player (Videos is, as on Ubuntu) until a task makes it so', async () => {
  const player = await sh('xdg-mime query default video/mp4');
  expect(player.output.trim()).not.toBe('vlc.desktop');
  expect(player.output.trim()).toBe('org.gnome.Totem.desktop');
});

test('every program of the desktop table (src/desktop/provided-commands.ts) is in the image, and those it lacks on purpose are not', async () => {
  const provided = Object.keys(PROVIDED_COMMANDS);
  for (const needed of ['google-chrome', 'code', 'socat', 'gsettings', 'pactl', 'timedatectl', 'bc', 'jq', 'gio']) expect(provided).toContain(needed);
  const quoted = (names: string[]) => names.map((name) => `'${name.replace(/'/g, "'\\''")}'`).join(' ');
  // In bash, with the environment task commands get: the corpora run their scripts with bash (`bash -c`, /bin/bash).
  const absent = async (names: string[]) =>
    (await desktop.client.execute(['bash', '-c', `for c in ${quoted(names)}; do command -v "$c" >/dev/null || echo "$c"; done`])).output.split('\n').filter(Boolean);
  expect(await absent(provided)).toEqual([]);
  expect(await absent(Object.keys(LACKS_ON_PURPOSE))).toEqual(Object.keys(LACKS_ON_PURPOSE));
});
