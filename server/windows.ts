// Window queries and actions through wmctrl, as OSWorld's server does them.
import { run } from './process.ts';

export interface WindowEntry {
  id: string;
  title: string;
}

/** The lines of `wmctrl -l`: id, desktop, host, then the title (which may hold spaces or be empty). */
export function parseWindowList(output: string): WindowEntry[] {
  return output
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => {
      const match = /^(\S+)\s+\S+\s+\S+\s?(.*)$/.exec(line);
      return { id: match?.[1] ?? '', title: match?.[2] ?? '' };
    });
}

export async function listWindows(): Promise<WindowEntry[]> {
  const result = await run({ argv: ['wmctrl', '-l'], shell: false }, { timeoutMs: 5_000 });
  return result.returncode === 0 ? parseWindowList(result.stdout) : [];
}

/** Polls until a window title contains one of `names`; activates it and returns true, or false at the deadline. */
export async function waitForWindow(names: string[], timeoutMs: number, intervalMs = 200): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await listWindows()).find((w) => names.some((name) => name && w.title.includes(name)));
    if (found) {
      await run({ argv: ['wmctrl', '-i', '-a', found.id], shell: false }, { timeoutMs: 5_000 });
      return true;
    }
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** `wmctrl -a|-c NAME` with -x (match WM_CLASS) and -F (exact title) as OSWorld passes them. */
export async function windowAction(action: 'a' | 'c', name: string, strict: boolean, byClass: boolean): Promise<void> {
  const flags = `-${byClass ? 'x' : ''}${strict ? 'F' : ''}${action}`;
  await run({ argv: ['wmctrl', flags, name], shell: false }, { timeoutMs: 10_000 });
}
