// `deskbench check` as users run it: the real command in a child process — on the corpora, on fixtures, and with the
// user's extensions.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import type { CheckReport } from '../../src/cli/check.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/deskbench.js');
const CORPORA = resolve(ROOT, '../shared/corpora');
const EXTENSION_TASKS = join(ROOT, 'fixtures/tasks/extension');
const MARKER = join(ROOT, 'fixtures/extensions/marker.ts');

async function deskbench(args: string[], bin = BIN, cwd = ROOT): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [bin, ...args], { cwd, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const json = (stdout: string) => JSON.parse(stdout) as CheckReport;

describe('deskbench check', () => {
  test.skipIf(!existsSync(CORPORA))('the corpora: every task loads without an error (skipped when ../shared/corpora is absent)', async () => {
    const run = await deskbench(['check', CORPORA, '--json']);
    expect(run.code).toBe(0);
    const report = json(run.stdout);
    expect(report.errors).toEqual([]);
    expect(report.tasks).toBe(956);
    expect(report.byFormat).toEqual({ osworld: 418, spider2v: 494, guios: 44 });
  });

  test('a broken task file: exit 1, and the error names the file, the field and what was expected', async () => {
    const run = await deskbench(['check', join(ROOT, 'fixtures/tasks/invalid'), '--json']);
    expect(run.code).toBe(1);
    const report = json(run.stdout);
    const byFile = Object.fromEntries(report.errors.map((error) => [error.file.slice(-6), { path: error.path, message: error.message }]));
    expect(byFile['b.json']).toEqual({ path: 'instruction', message: 'missing required field: expected the instruction (string)' });
    expect(byFile['c.json']).toEqual({ path: 'config[1].type', message: 'expected a step type name (string)' });
    expect(byFile['a.json'].message).toMatch(/^not valid JSON \(.*line 4 column 1\)\)$/);
    expect(Object.keys(byFile)).toHaveLength(4);
  });

  test("the user's setup steps, getters and metrics count as implemented once --extensions imports them", async () => {
    const without = json((await deskbench(['check', EXTENSION_TASKS, '--json'])).stdout);
    expect(without.unsupported).toEqual({ steps: { write_marker: 1 }, getters: { marker_file: 1 }, metrics: { marker_equals: 1 } });
    expect(without.runnable).toBe(0);
    const withExtension = json((await deskbench(['check', EXTENSION_TASKS, '--json', '--extensions', MARKER])).stdout);
    expect(withExtension.unsupported).toEqual({ steps: {}, getters: {}, metrics: {} });
    expect(withExtension.runnable).toBe(1);
  });

  test('an extension that cannot be imported: exit 2 and a message naming it', async () => {
    const run = await deskbench(['check', EXTENSION_TASKS, '--extensions', './no/such/extension.ts']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('deskbench check: extension ./no/such/extension.ts could not be imported');
  });

  test('installed as a package without its build (dist/): a clear message, exit 2 (test/package runs the built one)', async () => {
    const project = mkdtempSync(join(tmpdir(), 'deskbench-installed-'));
    const installed = join(project, 'node_modules', 'deskbench');
    for (const part of ['bin', 'src', 'package.json']) cpSync(join(ROOT, part), join(installed, part), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(installed, 'node_modules'));
    const run = await deskbench(['check', EXTENSION_TASKS], join(installed, 'bin/deskbench.js'), project);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`deskbench: ${join(installed, 'dist/cli/main.js')} is missing: this copy of deskbench was installed without its build`);
  });
});
