import { basename, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { listTests } from './run-vitest.ts';

const PROJECT = resolve(import.meta.dirname, '../../fixtures/plugin-project');
const ids = (entries: { file: string }[]) => entries.map((e) => basename(e.file, '.json').slice(-2)).sort();

describe('one test per task file', () => {
  test('vitest list shows one entry per task file, with literal names', async () => {
    const entries = await listTests(PROJECT);
    // 4 valid tasks (osworld ×2, spider2v, guios) + 4 invalid files + a hostile id (0e); the index file and
    // connection.json are not tests.
    expect(ids(entries)).toEqual(['01', '02', '03', '04', '0a', '0b', '0c', '0d', '0e']);
    expect(entries.map((e) => e.name)).toContain('os/5f0c3b1e-0000-4000-8000-000000000001: Create a file named done.txt on the Desktop containing the word ready.');
    expect(entries.map((e) => e.name)).toContain('invalid task file: 5f0c3b1e-0000-4000-8000-00000000000b.json');
  });

  test('--tags-filter selects by domain, by the task\'s own tags, by format and by flag', async () => {
    expect(ids(await listTests(PROJECT, ['--tags-filter', 'chrome']))).toEqual(['04']);
    expect(ids(await listTests(PROJECT, ['--tags-filter', 'verbose']))).toEqual(['03']);
    expect(ids(await listTests(PROJECT, ['--tags-filter', 'jupyter && !guios']))).toEqual(['02']);
    expect(ids(await listTests(PROJECT, ['--tags-filter', 'osworld && !internet']))).toEqual(['01']);
    expect(ids(await listTests(PROJECT, ['--tags-filter', 'invalid']))).toEqual(['0a', '0b', '0c', '0d', '0e']);
  });

  test('--shard splits the task files between machines without overlap', async () => {
    const [one, two] = await Promise.all([listTests(PROJECT, ['--shard=1/2']), listTests(PROJECT, ['--shard=2/2'])]);
    expect([one.length, two.length].sort()).toEqual([4, 5]);
    expect([...ids(one), ...ids(two)].sort()).toEqual(['01', '02', '03', '04', '0a', '0b', '0c', '0d', '0e']);
  });

  test('a path on the command line selects that one task', async () => {
    const entries = await listTests(PROJECT, ['../tasks/valid/osworld/examples/chrome/5f0c3b1e-0000-4000-8000-000000000004.json']);
    expect(ids(entries)).toEqual(['04']);
  });
});

describe('a malformed task fails alone', () => {
  test('its test fails with the validation error; the other task files still run', async () => {
    const { mkdtemp, readFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { vitestCli } = await import('./run-vitest.ts');
    const out = resolve(await mkdtemp(resolve(tmpdir(), 'deskbench-plugin-')), 'report.json');
    // Only the OSWorld os task and the invalid files: the os task runs for real (no agent turns are needed to see it
    // ran), the invalid ones fail with their errors.
    const run = await vitestCli(PROJECT, ['run', '--tags-filter', 'invalid || os', '--reporter=json', `--outputFile=${out}`], {
      DESKBENCH_TEST_AGENT: 'noop',
    });
    const report = JSON.parse(await readFile(out, 'utf8')) as {
      testResults: { name: string; assertionResults: { status: string; failureMessages: string[]; title: string }[] }[];
    };
    const byFile = new Map(report.testResults.map((r) => [basename(r.name, '.json').slice(-2), r.assertionResults]));
    expect(run.code).toBe(1);
    for (const id of ['0a', '0b', '0c', '0d', '0e']) {
      expect(byFile.get(id)?.[0].status).toBe('failed');
    }
    expect(byFile.get('0b')?.[0].failureMessages[0]).toContain('at instruction: missing required field');
    expect(byFile.get('0c')?.[0].failureMessages[0]).toContain('at config[1].type');
    // Each error points at its own place in its file (the stack vitest draws its code frame from), not at one line.
    expect(byFile.get('0a')?.[0].failureMessages[0]).toMatch(/at \S+00000000000a\.json:4:1\b/);
    expect(byFile.get('0c')?.[0].failureMessages[0]).toMatch(/at \S+00000000000c\.json:1:172\b/);
    // A hostile id is refused at load: the test fails with the id error and no task ran (no results folder for it).
    expect(byFile.get('0e')?.[0].failureMessages[0]).toMatch(/00000000000e\.json:2:9 at id: expected the task id to be a safe folder name/);
    // The valid task's test ran to a verdict of its own instead of being taken down with the broken files.
    const valid = byFile.get('01')?.[0];
    expect(valid).toBeDefined();
    expect(valid?.failureMessages.join('\n') ?? '').not.toContain('TaskFileError');
  });
});
