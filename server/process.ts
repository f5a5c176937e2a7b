// Running commands the way OSWorld's server does (subprocess.run / Popen), as the desktop user with the session env
// (the server's own environment, which holds no secret: see secrets.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { constants } from 'node:os';
import { shlexSplit } from '../src/shared/shlex.ts';

export const HOME = process.env.HOME ?? '/home/user';

/** `~` and `~/x` → home; as os.path.expanduser. */
export function expandUser(path: string): string {
  if (path === '~') return HOME;
  return path.startsWith('~/') ? HOME + path.slice(1) : path;
}

/** os.path.expandvars(os.path.expanduser(path)): `$VAR` and `${VAR}` that are set are replaced. */
export function expandPath(path: string): string {
  return expandUser(path).replace(/\$(\w+|\{[^}]*\})/g, (match, name: string) => {
    const key = name.startsWith('{') ? name.slice(1, -1) : name;
    return process.env[key] ?? match;
  });
}

export type Command = { argv: string[]; shell: false } | { argv: string[]; shell: true };

/**
 * OSWorld's request → command: a string with shell=false is shlex-split; list arguments starting with `~/` are
 * expanded; with shell=true a string runs through /bin/sh -c, and a list becomes `/bin/sh -c first rest...`.
 */
export function parseCommand(body: { command?: unknown; shell?: unknown }): Command {
  const shell = Boolean(body.shell);
  let command = body.command ?? (shell ? '' : []);
  if (typeof command === 'string' && !shell) command = shlexSplit(command);
  if (typeof command === 'string') return { argv: [command], shell: true };
  if (!Array.isArray(command)) throw new Error(`command must be a string or a list, got ${typeof command}`);
  const argv = command.map((arg) => {
    const text = String(arg);
    return text.startsWith('~/') ? expandUser(text) : text;
  });
  return shell ? { argv, shell: true } : { argv, shell: false };
}

function spawnCommand(command: Command, options: { cwd?: string; detached?: boolean; stdio?: 'pipe' | 'ignore' }) {
  if (!command.shell && command.argv.length === 0) throw new Error('list index out of range');
  const [file, args] = command.shell ? ['/bin/sh', ['-c', ...command.argv]] : [command.argv[0], command.argv.slice(1)];
  return spawn(file, args, {
    cwd: options.cwd ?? HOME,
    detached: options.detached,
    stdio: options.stdio === 'ignore' ? 'ignore' : ['ignore', 'pipe', 'pipe'],
  });
}

/** Python's message for a failed exec, e.g. "[Errno 2] No such file or directory: 'foo'". */
function spawnErrorMessage(error: NodeJS.ErrnoException, file: string): string {
  const errno = error.errno !== undefined ? Math.abs(error.errno) : undefined;
  const text: Record<string, string> = { ENOENT: 'No such file or directory', EACCES: 'Permission denied' };
  if (error.code && text[error.code]) return `[Errno ${errno}] ${text[error.code]}: '${file}'`;
  return error.message;
}

export interface RunResult {
  stdout: string;
  stderr: string;
  returncode: number;
}

export class CommandTimeout extends Error {
  override name = 'CommandTimeout';
}

/**
 * subprocess.run(..., capture_output, timeout): resolves when the process exits. Output still held open by
 * background children (`app &`) is not waited for beyond a short grace period, unlike Python, which would hang.
 */
export function run(
  command: Command,
  options: { timeoutMs: number; cwd?: string; mergeStderr?: boolean },
): Promise<RunResult> {
  if (options.mergeStderr && !command.shell) {
    // One pipe for both streams (Python's stderr=STDOUT), so their interleaving is kept.
    command = { argv: ['/bin/sh', '-c', 'exec "$@" 2>&1', 'sh', ...command.argv], shell: false };
  }
  return new Promise((resolve, reject) => {
    let child: ChildProcess;
    try {
      child = spawnCommand(command, { cwd: options.cwd, detached: true });
    } catch (error) {
      return reject(error);
    }
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout!.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr!.on('data', (chunk: Buffer) => (options.mergeStderr ? out : err).push(chunk));
    let settled = false;
    const timer = setTimeout(() => {
      if (settled) return;
      settled = true;
      killGroup(child);
      const shown = command.shell ? command.argv[0] : command.argv.join(' ');
      reject(new CommandTimeout(`Command '${shown}' timed out after ${options.timeoutMs / 1000} seconds`));
    }, options.timeoutMs);
    child.on('error', (error: NodeJS.ErrnoException) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(new Error(spawnErrorMessage(error, command.shell ? '/bin/sh' : command.argv[0])));
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      const finish = () => {
        if (settled) return;
        settled = true;
        child.stdout!.destroy();
        child.stderr!.destroy();
        const returncode = code ?? -(signal ? (constants.signals[signal] ?? 1) : 1);
        resolve({ stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), returncode });
      };
      child.on('close', finish);
      setTimeout(finish, 300);
    });
  });
}

function killGroup(child: ChildProcess): void {
  try {
    if (child.pid) process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

/** subprocess.Popen, fire-and-forget: resolves once the program started, rejects when it could not be executed. */
export function launch(command: Command): Promise<void> {
  return new Promise((resolve, reject) => {
    let child: ChildProcess;
    try {
      child = spawnCommand(command, { detached: true, stdio: 'ignore' });
    } catch (error) {
      return reject(error);
    }
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(new Error(spawnErrorMessage(error, command.shell ? '/bin/sh' : command.argv[0]))),
    );
  });
}
