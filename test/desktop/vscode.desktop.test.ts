// VS Code in the desktop (code-server behind the `code` wrapper), driven the way OSWorld and GUI-OS tasks drive it:
// windows opened by `code`, extensions managed from the CLI.
// One container for this file.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startDesktop, type Desktop } from '../../src/desktop/docker-provider.ts';
import { until } from './until.ts';

let desktop: Desktop;
beforeAll(async () => {
  desktop = await startDesktop({ runId: 'test-desktop-vscode', startupTimeoutMs: 300_000 }); // a loaded machine starts GNOME slowly
}, 360_000);
afterAll(async () => {
  await desktop?.stop();
});

async function sh(command: string): Promise<string> {
  const result = await desktop.client.execute(['bash', '-c', command]);
  expect(result.returncode, `${command}: ${result.error}`).toBe(0);
  return result.output;
}

/** Window titles and WM_CLASS, from wmctrl -lx: [{title, wmClass}]. */
async function windows(): Promise<{ title: string; wmClass: string }[]> {
  const listing = await sh('wmctrl -lx || true');
  return listing.split('\n').filter(Boolean).map((line) => {
    const [, , wmClass, , ...title] = line.split(/\s+/);
    return { wmClass, title: title.join(' ') };
  });
}

const waitForTitle = (title: string) =>
  until(`a window titled "${title}"`, async () => (await windows()).find((w) => w.title === title), 150_000);

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
