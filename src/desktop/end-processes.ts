// Ending an app in the desktop and waiting until its processes are gone, so that what runs next starts on a desktop
// without it: a single-instance app still exiting takes the next launch's file (gedit), a LibreOffice still exiting
// the next one's start, and a browser writes its profile only as it exits.
import type { DesktopClient } from './client.ts';

export interface EndProcessesOptions {
  /** How `pattern` is matched, by pkill and pgrep alike: the process name exactly (-x), a part of it, or the whole command line (-f). */
  match?: 'exact name' | 'name' | 'command line';
  /** How long to wait for them to go after SIGTERM, seconds. */
  waitSeconds?: number;
  /** Whether what is left after that wait gets SIGKILL, and is waited for as long again. */
  thenKill?: boolean;
}

const FLAGS = { 'exact name': '-x ', name: '', 'command line': '-f ' } as const;

/** Sends SIGTERM to the processes `pattern` matches and waits until none is left; true when none is. */
export async function endProcesses(client: DesktopClient, pattern: string, options: EndProcessesOptions = {}): Promise<boolean> {
  const { match = 'name', waitSeconds = 10, thenKill = false } = options;
  const target = `${FLAGS[match]}'${pattern}'`;
  const gone = `for i in $(seq ${Math.round(waitSeconds * 10)}); do pgrep ${target} >/dev/null || exit 0; sleep 0.1; done`;
  const script = thenKill ? `pkill ${target}; (${gone}; exit 1) && exit 0; pkill -9 ${target}; ${gone}; exit 1` : `pkill ${target}; ${gone}; exit 1`;
  return (await client.execute(script, { shell: true })).returncode === 0;
}
