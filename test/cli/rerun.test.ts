// `deskbench rerun`: the command it prints, run in the same tree, gives a report whose run record matches the first
// field for field but the date and the run id; a task file changed since is named; a report it cannot use is a usage
// error. The runs are fixtures/compare-project's (no desktops); the plugin's options, agent module and image are
// checked end to end by test/examples/examples.desktop.test.ts.
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import type { RunReport } from '../../src/node/report/aggregate.ts';
import type { RunRecord } from '../../src/node/report/run-record.ts';
import { runChild, shapingVariables } from '../helpers/child-run.ts';
import { vitestCli } from '../plugin/run-vitest.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const PROJECT = join(ROOT, 'fixtures/compare-project');

const deskbench = (args: string[], cwd: string) => runChild(process.execPath, [join(ROOT, 'bin/deskbench.js'), ...args], { cwd });
const recordOf = async (dir: string) => (JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as RunReport).run!;
/** The record but what differs on every run. */
const fixed = ({ recordedAt, runId, ...rest }: RunRecord) => rest;

describe('deskbench rerun', () => {
  let base: string;
  let results: string;
  let tasks: string;
  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'deskbench-rerun-'));
    results = join(base, 'results');
    tasks = join(base, 'tasks');
    await cp(join(PROJECT, 'tasks'), tasks, { recursive: true });
    const run = await vitestCli(PROJECT, ['run', '--testNamePattern', '/t[0-9]'], { DESKBENCH_FIXTURE_AGENT: 'b', DESKBENCH_FIXTURE_TASKS: tasks, DESKBENCH_RESULTS: results });
    expect(run.stdout).toContain('Tests  4 failed | 4 passed (8)');
  }, 60_000);

  test('prints the command; run in the same tree it gives a report whose record matches but for date and id', async () => {
    const first = await recordOf(results);
    const printed = await deskbench(['rerun', join(results, 'report.json'), '--json'], base);
    expect(printed.code, printed.stderr).toBe(0);
    const { cwd, commands, differences } = JSON.parse(printed.stdout) as { cwd: string; commands: string[]; differences: string[] };
    expect(differences).toEqual([]);
    expect(cwd).toBe(PROJECT);
    // What the child inherits shapes the run too (CI runs the unit tests with an unreachable DOCKER_HOST).
    const variables = shapingVariables({ DESKBENCH_FIXTURE_AGENT: 'b', DESKBENCH_FIXTURE_TASKS: tasks, DESKBENCH_RESULTS: results });
    // Among them whatever DESKBENCH_* this process has (DESKBENCH_IMAGE when a developer set it), sorted in between.
    expect(variables.split(' ')).toEqual(expect.arrayContaining(['DESKBENCH_FIXTURE_AGENT=b', `DESKBENCH_FIXTURE_TASKS=${tasks}`, `DESKBENCH_RESULTS=${results}`]));
    expect(commands).toEqual([`${variables} npx vitest run --testNamePattern '/t[0-9]'`]);
    // The text form says the same, ready to paste.
    const text = await deskbench(['rerun', results], base);
    expect(text.stdout).toContain(`cd ${PROJECT}\n${commands[0]}\n`);
    expect(text.stdout).toContain('# This tree matches the record');

    const again = await runChild('bash', ['-c', commands[0]], { cwd, env: { NO_COLOR: '1' } });
    expect(again.stdout).toContain('Tests  4 failed | 4 passed (8)');
    const second = await recordOf(results);
    expect(second.recordedAt).not.toBe(first.recordedAt);
    expect(fixed(second)).toEqual(fixed(first));
  }, 60_000);

  test('a task file changed since the run is named, and the exit code says something differs', async () => {
    await writeFile(join(tasks, 't3.json'), '{"id":"t3","changed":true}\n');
    const printed = await deskbench(['rerun', results], base);
    expect(printed.code).toBe(1);
    expect(printed.stdout).toMatch(/# Where this tree differs from the run \(1\):\n {2}! task file \S+t3\.json: sha256 recorded [0-9a-f]{12}, now [0-9a-f]{12}/);
  });

  test('a folder without a report, or a report without a record, is a usage error naming the file', async () => {
    const missing = await deskbench(['rerun', join(base, 'nothing-here')], base);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('nothing-here: no such results folder or report file');
    const old = join(base, 'old-report.json');
    await writeFile(old, JSON.stringify({ generatedAt: 'x', tasks: [] }));
    const noRecord = await deskbench(['rerun', old], base);
    expect(noRecord.code).toBe(2);
    expect(noRecord.stderr).toContain(`${old} at run: no run record`);
  });
});
