// A child process a test starts never carries the run id of the process that started it. In the desktop project that
// id is shared by every file's pooled desktop (test/desktop-project.ts), and a child running the deskbench plugin
// removes every container of its run id when it ends: with two desktop files at a time, the other file's desktop.
import { afterEach, describe, expect, test, vi } from 'vitest';
import { childEnv, runChild } from './child-run.ts';

const SHARED = 'test-desktop-4242';
const printRunId = ['-e', 'process.stdout.write(process.env.DESKBENCH_RUN_ID ?? "(none)")'];

describe('a child process gets a run id of its own', () => {
  afterEach(() => vi.unstubAllEnvs());

  test('childEnv: an id under the inherited one, never equal to it; the rest inherited, with extra on top', () => {
    vi.stubEnv('DESKBENCH_RUN_ID', SHARED);
    vi.stubEnv('DESKBENCH_IMAGE', 'deskbench/desktop:pinned');
    const env = childEnv({ CI: 'true' }, 'getting-started');
    expect(env.DESKBENCH_RUN_ID).toMatch(/^test-desktop-4242-getting-started-[0-9a-f]{8}$/);
    expect(env.DESKBENCH_IMAGE).toBe('deskbench/desktop:pinned');
    expect(env.CI).toBe('true');
    expect(childEnv().DESKBENCH_RUN_ID).not.toBe(childEnv().DESKBENCH_RUN_ID);
  });

  test('childEnv: a run id the caller gives is kept; undefined leaves a variable out but never the run id', () => {
    vi.stubEnv('DESKBENCH_RUN_ID', SHARED);
    vi.stubEnv('DESKBENCH_IMAGE', 'deskbench/desktop:pinned');
    expect(childEnv({ DESKBENCH_RUN_ID: 'test-desktop-4242-mine' }).DESKBENCH_RUN_ID).toBe('test-desktop-4242-mine');
    const env = childEnv({ DESKBENCH_RUN_ID: undefined, DESKBENCH_IMAGE: undefined });
    expect(env.DESKBENCH_RUN_ID).toMatch(/^test-desktop-4242-child-/);
    expect('DESKBENCH_IMAGE' in env).toBe(false);
  });

  test('runChild: the child process sees its own id, also when the caller names DESKBENCH_RUN_ID as undefined', async () => {
    vi.stubEnv('DESKBENCH_RUN_ID', SHARED);
    const plain = await runChild(process.execPath, printRunId, { cwd: import.meta.dirname });
    expect(plain.stdout).toMatch(/^test-desktop-4242-child-[0-9a-f]{8}$/);
    const unset = await runChild(process.execPath, printRunId, { cwd: import.meta.dirname, env: { DESKBENCH_RUN_ID: undefined } });
    expect(unset.stdout).toMatch(/^test-desktop-4242-child-[0-9a-f]{8}$/);
  });
});
