// Shell commands and the window list of a test file's desktop, as the VS Code desktop tests use them.
import { expect } from 'vitest';
import type { TestDesktop } from '../helpers/desktops.ts';
import { until } from './until.ts';

/** Helpers bound to a test file's desktop; `desktop` is read at each call (files take theirs in beforeAll). */
export function desktopShell(desktop: () => TestDesktop) {
  /** Runs a bash command; fails the test unless it exits 0. Returns its output. */
  async function sh(command: string): Promise<string> {
    const result = await desktop().client.execute(['bash', '-c', command]);
    expect(result.returncode, `${command}: ${result.error}`).toBe(0);
    return result.output;
  }
  /** Runs pyautogui code on the desktop, as an agent's action does; fails the test unless it exits 0. */
  async function act(code: string): Promise<void> {
    const result = await desktop().client.execute(['python', '-c', `import pyautogui, time\n${code}`]);
    expect(result.returncode, result.error).toBe(0);
  }
  /** Window titles and WM_CLASS, from wmctrl -lx. */
  async function windows(): Promise<{ title: string; wmClass: string }[]> {
    const listing = await sh('wmctrl -lx || true');
    return listing.split('\n').filter(Boolean).map((line) => {
      const [, , wmClass, , ...title] = line.split(/\s+/);
      return { wmClass, title: title.join(' ') };
    });
  }
  const waitForTitle = (title: string, timeoutMs = 150_000) =>
    until(`a window titled "${title}"`, async () => (await windows()).find((w) => w.title === title), timeoutMs);
  return { sh, act, windows, waitForTitle };
}
