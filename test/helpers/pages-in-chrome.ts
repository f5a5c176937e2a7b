// deskbench's HTML pages opened as a user opens them, offline: a folder copied into a fresh desktop and a page of it
// opened from disk in the desktop's headless Chrome, driven over CDP (playwright-core). For the report and compare
// desktop tests; the desktop comes from the desktop project's pool and is removed afterwards.
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { Page } from 'playwright-core';
import { connectOverDevTools } from '../../src/desktop/chrome-devtools.ts';
import type { DesktopService } from '../../src/desktop/providers/provider.ts';
import { takeDesktop } from './desktops.ts';

/** Copies `dir` to `target` in a new desktop, opens `file://<target>/<page>` in headless Chrome there, hands over the page. */
export async function withPageInChrome(dir: string, target: string, page: string, use: (page: Page) => Promise<void>): Promise<void> {
  const desktop = await takeDesktop();
  try {
    for (const file of await listFiles(dir)) await desktop.client.upload(`${target}/${relative(dir, file)}`, await readFile(file));
    await desktop.client.launch(['google-chrome', '--remote-debugging-port=1337', '--headless=new', 'about:blank']);
    await desktop.client.launch(['socat', 'tcp-listen:9222,fork', 'tcp:localhost:1337']);
    const browser = await connect(desktop.cdp);
    try {
      const opened = browser.contexts()[0].pages()[0] ?? (await browser.contexts()[0].newPage());
      await opened.goto(`file://${target}/${page}`);
      await use(opened);
    } finally {
      await browser.close();
    }
  } finally {
    await desktop.stop();
  }
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

async function connect(cdp: DesktopService) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await connectOverDevTools(cdp);
    } catch (error) {
      if (attempt > 30) throw error;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}
