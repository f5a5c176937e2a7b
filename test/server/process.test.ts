// Commands as OSWorld's server runs them (server/process.ts): request → argv, and real child processes on this host
// for run (exit codes, output, timeouts that kill the whole group, background children) and launch.
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, test, vi } from 'vitest';
import { CommandTimeout, HOME, expandPath, expandUser, launch, parseCommand, run } from '../../server/process.ts';

const scratch = mkdtempSync(join(tmpdir(), 'deskbench-server-process-'));

afterEach(() => {
  vi.unstubAllEnvs();
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** True once `pid` has exited (gone, or a zombie nobody reaped yet). */
async function exits(pid: number, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const stat = `/proc/${pid}/stat`;
    if (!existsSync(stat) || / Z /.test(readFileSync(stat, 'utf8'))) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('paths', () => {
  test('expandUser: only a leading ~ or ~/', () => {
    expect(expandUser('~')).toBe(HOME);
    expect(expandUser('~/Desktop/a.txt')).toBe(`${HOME}/Desktop/a.txt`);
    expect(expandUser('~other/x')).toBe('~other/x');
    expect(expandUser('/tmp/~/x')).toBe('/tmp/~/x');
  });

  test('expandPath: $VAR and ${VAR} that are set are replaced, unset ones stay as written', () => {
    vi.stubEnv('DESKBENCH_TEST_DIR', '/data');
    vi.stubEnv('DESKBENCH_TEST_UNSET', undefined);
    expect(expandPath('$DESKBENCH_TEST_DIR/a')).toBe('/data/a');
    expect(expandPath('${DESKBENCH_TEST_DIR}b')).toBe('/datab');
    expect(expandPath('$DESKBENCH_TEST_UNSET/a ${DESKBENCH_TEST_UNSET}')).toBe('$DESKBENCH_TEST_UNSET/a ${DESKBENCH_TEST_UNSET}');
    expect(expandPath('~/$DESKBENCH_TEST_DIR')).toBe(`${HOME}//data`);
  });
});

describe('parseCommand', () => {
  test('a string without shell is shlex-split; with shell it runs whole through sh -c', () => {
    expect(parseCommand({ command: `python3 -c "print('a b')"` })).toEqual({ argv: ['python3', '-c', "print('a b')"], shell: false });
    expect(parseCommand({ command: 'ls | wc -l', shell: true })).toEqual({ argv: ['ls | wc -l'], shell: true });
  });

  test('list arguments: a leading ~/ is expanded, other text and non-strings are kept as text', () => {
    expect(parseCommand({ command: ['cp', '~/a', 'b~/c', 3] })).toEqual({ argv: ['cp', `${HOME}/a`, 'b~/c', '3'], shell: false });
    expect(parseCommand({ command: ['echo $0 $1', 'x'], shell: 1 })).toEqual({ argv: ['echo $0 $1', 'x'], shell: true });
  });

  test('no command: an empty list, or an empty shell string; anything else is refused', () => {
    expect(parseCommand({})).toEqual({ argv: [], shell: false });
    expect(parseCommand({ shell: true })).toEqual({ argv: [''], shell: true });
    expect(() => parseCommand({ command: { program: 'ls' } })).toThrow('command must be a string or a list, got object');
  });
});

describe('run', () => {
  test('stdout, stderr and the exit code, apart', async () => {
    const result = await run({ argv: ['echo out; echo err >&2; exit 3'], shell: true }, { timeoutMs: 10_000 });
    expect(result).toEqual({ stdout: 'out\n', stderr: 'err\n', returncode: 3 });
  });

  test('mergeStderr keeps the order in which the two streams were written', async () => {
    const script = 'for i in 1 2 3 4 5; do echo "out $i"; echo "err $i" >&2; done';
    const result = await run({ argv: ['sh', '-c', script], shell: false }, { timeoutMs: 10_000, mergeStderr: true });
    expect(result.stdout).toBe([1, 2, 3, 4, 5].map((i) => `out ${i}\nerr ${i}\n`).join(''));
    expect(result.stderr).toBe('');
  });

  test('runs in HOME unless given a folder', async () => {
    const there = await run({ argv: ['pwd'], shell: false }, { timeoutMs: 10_000, cwd: scratch });
    expect(there.stdout.trim()).toBe(realpathSync(scratch));
    const home = await run({ argv: ['pwd'], shell: false }, { timeoutMs: 10_000 });
    expect(home.stdout.trim()).toBe(realpathSync(HOME));
  });

  test('a process killed by a signal has returncode -signal, as in Python', async () => {
    const result = await run({ argv: ['kill -KILL $$'], shell: true }, { timeoutMs: 10_000 });
    expect(result.returncode).toBe(-9);
  });

  test('a timeout rejects with Python\'s message and kills the whole process group, children too', async () => {
    const started = Date.now();
    const pidFile = join(scratch, 'sleep.pid');
    const running = run({ argv: [`sleep 30 & echo $! > ${pidFile}; wait`], shell: true }, { timeoutMs: 1_500 });
    await expect(running).rejects.toThrow(CommandTimeout);
    await expect(running).rejects.toThrow(`Command 'sleep 30 & echo $! > ${pidFile}; wait' timed out after 1.5 seconds`);
    expect(Date.now() - started).toBeLessThan(5_000);
    const child = Number(readFileSync(pidFile, 'utf8'));
    expect(child).toBeGreaterThan(0);
    try {
      expect(await exits(child, 2_000)).toBe(true);
    } finally {
      if (!(await exits(child, 0))) process.kill(child, 'SIGKILL');
    }
  });

  test('a background child that keeps the output open is not waited for (Python would hang)', async () => {
    const started = Date.now();
    const result = await run({ argv: ['sleep 30 & echo $!'], shell: true }, { timeoutMs: 20_000 });
    const background = Number(result.stdout.trim());
    try {
      expect(result.returncode).toBe(0);
      expect(background).toBeGreaterThan(0);
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      process.kill(background, 'SIGKILL');
    }
  });

  test('a program that cannot be executed: Python\'s OSError text; an empty argv: Python\'s IndexError text', async () => {
    await expect(run({ argv: ['/nonexistent/deskbench-program'], shell: false }, { timeoutMs: 10_000 })).rejects.toThrow(
      "[Errno 2] No such file or directory: '/nonexistent/deskbench-program'",
    );
    await expect(run({ argv: [scratch], shell: false }, { timeoutMs: 10_000 })).rejects.toThrow(`[Errno 13] Permission denied: '${scratch}'`);
    await expect(run({ argv: [], shell: false }, { timeoutMs: 10_000 })).rejects.toThrow('list index out of range');
  });
});

describe('launch', () => {
  test('resolves once the program started, without waiting for it to end', async () => {
    const marker = join(scratch, 'launched');
    await launch({ argv: [`sleep 2; touch ${marker}`], shell: true });
    expect(existsSync(marker)).toBe(false);
    await vi.waitFor(() => expect(existsSync(marker)).toBe(true), { timeout: 5_000 });
  });

  test('rejects when the program does not exist', async () => {
    await expect(launch({ argv: ['deskbench-no-such-program'], shell: false })).rejects.toThrow(
      "[Errno 2] No such file or directory: 'deskbench-no-such-program'",
    );
  });
});
