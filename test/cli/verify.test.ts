// `deskbench verify` fails loudly, as a user runs it (the command in a child process), on errors found before any
// desktop starts: a path that names nothing, an invalid task file, a solution whose task is absent. None of these runs
// starts a desktop: the paths hold no task that verify would run.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import type { VerificationSummary } from '../../src/contract/verification.ts';

const ROOT = resolve(import.meta.dirname, '../..');

async function deskbenchVerify(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return deskbenchCommand(['verify', ...args], cwd);
}

/** `deskbench <command> …` with a results folder of its own; its exit code and output. */
async function deskbenchCommand(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const results = mkdtempSync(join(tmpdir(), 'deskbench-verify-results-'));
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [join(ROOT, 'bin/deskbench.js'), ...args, '--results', results], { cwd });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** Writes the files (objects as JSON) under a new temporary folder and returns it. */
function folder(files: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'deskbench-verify-'));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), typeof content === 'string' ? content : JSON.stringify(content));
  }
  return dir;
}

const task = (id: string) => ({ id, instruction: `Task ${id}.`, config: [], evaluator: { func: 'infeasible' } });
type Output = VerificationSummary & { command: string[] };

// Concurrent: each test runs the command in folders of its own.
describe.concurrent('deskbench verify: errors before any desktop starts', () => {
  test('a path that names nothing: exit 1, the path named in errors, and nothing runs', async () => {
    const cwd = folder({ 'tasks/os/aaa.json': task('aaa') });
    const run = await deskbenchVerify(['typo/', 'tasks', '--json'], cwd);
    expect(run.code, run.stderr).toBe(1);
    const out = JSON.parse(run.stdout) as Output;
    expect(out.command).toEqual(['deskbench', 'verify', 'typo/', 'tasks', '--json', '--results', expect.any(String)]);
    expect(out.errors).toEqual([
      { code: 'DESKBENCH_TASK_PATH_MISSING', file: join(cwd, 'typo'), path: '', message: 'no such file or folder (expected a task file, an index file, a folder or a glob)' },
    ]);
    expect({ tasks: out.tasks, solved: out.solved, verified: out.verified, failures: out.failures }).toEqual({ tasks: 1, solved: 0, verified: 0, failures: [] });
    // Said on stderr before anything would run.
    expect(run.stderr).toContain(`[deskbench verify] ERROR DESKBENCH_TASK_PATH_MISSING ${join(cwd, 'typo')}: no such file or folder`);
  });

  test('without --json: the error line and the counts, exit 1', async () => {
    const cwd = folder({});
    const run = await deskbenchVerify(['typo/'], cwd);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`ERROR DESKBENCH_TASK_PATH_MISSING ${join(cwd, 'typo')}: no such file or folder`);
    expect(run.stdout).toContain('verified 0 of 0 solved (0 tasks in the paths); 1 errors');
  });

  test('an invalid task file: exit 1, listed with its file, line and field', async () => {
    const run = await deskbenchVerify([join(ROOT, 'fixtures/tasks/invalid'), '--json'], ROOT);
    expect(run.code).toBe(1);
    const out = JSON.parse(run.stdout) as Output;
    expect(out.errors.find((error) => error.file.endsWith('c.json'))).toEqual({
      code: 'DESKBENCH_TASK_FILE',
      file: join(ROOT, 'fixtures/tasks/invalid/examples/os/5f0c3b1e-0000-4000-8000-00000000000c.json'),
      path: 'config[1].type',
      message: 'expected a step type name (string)',
      line: 1,
      column: 172,
    });
    expect(out.errors.every((error) => error.code === 'DESKBENCH_TASK_FILE')).toBe(true);
  });

  test('a solution whose task is absent from the corpus its folder solves: exit 1, the solution file and its id named; gold-only tasks listed, not counted', async () => {
    const reason = 'the checker wants a comment only the gold notebook holds';
    const cwd = folder({
      'corpus/osworld/os/aaa.json': task('aaa'),
      'corpus/osworld/os/ccc.json': task('ccc'),
      'sol/osworld/aaa.json': { id: 'aaa', gold_only: reason },
      'sol/osworld/bbb.json': { id: 'bbb', note: 'its task was renamed', solution: [['DONE']] },
    });
    // A subset of the corpus: the absent task is looked for in the whole corpus, and still missing.
    const run = await deskbenchVerify(['corpus/osworld/os/aaa.json', '--solutions', 'sol', '--json'], cwd);
    expect(run.code, run.stderr).toBe(1);
    const out = JSON.parse(run.stdout) as Output;
    expect(out.errors).toEqual([
      {
        code: 'DESKBENCH_SOLUTION_TASK_ABSENT',
        file: join(cwd, 'sol/osworld/bbb.json'),
        path: 'id',
        message: 'no task bbb in corpus/osworld, the corpus the other files of sol/osworld solve: it was renamed or removed, or the id is mistyped',
      },
    ]);
    expect(out.goldOnly).toEqual([{ id: 'aaa', domain: 'os', reason }]);
    expect({ tasks: out.tasks, solved: out.solved, verified: out.verified }).toEqual({ tasks: 1, solved: 0, verified: 0 });
  });

  test('a broken solution file is an error too, naming the file and the field', async () => {
    const cwd = folder({ 'corpus/os/aaa.json': task('aaa'), 'sol/osworld/aaa.json': { id: 'aaa', solution: [['DONE']] } });
    const run = await deskbenchVerify(['corpus', '--solutions', 'sol', '--json'], cwd);
    expect(run.code).toBe(1);
    const out = JSON.parse(run.stdout) as Output;
    expect(out.errors).toEqual([{ code: 'DESKBENCH_TASK_FILE', file: join(cwd, 'sol/osworld/aaa.json'), path: 'note', message: 'expected a note: one or two sentences saying what the solution does' }]);
    expect(out.solved).toBe(0);
  });

  test('--repeats must be a positive whole number: usage error, exit 2', async () => {
    const run = await deskbenchVerify(['--repeats', '0'], ROOT);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('deskbench verify: --repeats expects a positive whole number');
  });
});

describe('deskbench replay: usage errors before any desktop starts', () => {
  test('no trajectories, a negative pause, or a bad --max-workers: exit 2 with the problem and the usage', async () => {
    const none = await deskbenchCommand(['replay'], ROOT);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('deskbench replay: give trajectory files or folders');
    const pause = await deskbenchCommand(['replay', 'x', '--pause=-1'], ROOT);
    expect(pause.stderr).toContain('--pause expects a number of seconds, 0 or more');
    const workers = await deskbenchCommand(['replay', 'x', '--max-workers', '1.5'], ROOT);
    expect(workers.stderr).toContain('--max-workers expects a positive whole number');
  });
});
