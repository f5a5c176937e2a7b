// `deskbench check` as users run it: the real command in a child process — on the corpora, on fixtures, and with the
// user's extensions.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import type { CheckReport } from '../../src/node/cli/check.ts';

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

// Concurrent: each test runs the command in folders of its own, and most of its time is the command's start-up.
describe.concurrent('deskbench check', () => {
  test.skipIf(!existsSync(CORPORA))('the corpora: every task loads; the one broken JSON file is the Spider2-V template (skipped when ../shared/corpora is absent)', async () => {
    const run = await deskbench(['check', CORPORA, '--json']);
    // The one invalid file is Spider2-V's task template, JSON with // comments (reported at its first comment).
    expect(run.code).toBe(1);
    const report = json(run.stdout);
    expect(report.errors.map(({ file, line, column }) => ({ file: file.slice(CORPORA.length), line, column }))).toEqual([
      { file: '/spider2v/examples/template.json', line: 14, column: 20 },
    ]);
    expect(report.tasks).toBe(956);
    expect(report.byFormat).toEqual({ osworld: 418, spider2v: 494, guios: 44 });
    // The programs the desktop lacks, on purpose (src/desktop/provided-commands.ts): those tasks are not runnable.
    expect(report.unsupported.programs).toEqual({ conda: 41, 'jupyter-lab': 39, pip: 3 });
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
    // Each error at its own line and column: the field's value, or the object a missing field belongs in.
    const where = Object.fromEntries(report.errors.map((error) => [error.file.slice(-6), [error.line, error.column]]));
    expect(where).toEqual({ 'a.json': [4, 1], 'b.json': [1, 1], 'c.json': [1, 172], 'd.json': [1, 181] });
    const text = await deskbench(['check', join(ROOT, 'fixtures/tasks/invalid')]);
    expect(text.stdout).toContain('fixtures/tasks/invalid/examples/os/5f0c3b1e-0000-4000-8000-00000000000c.json:1:172 at config[1].type: expected a step type name (string)');
  });

  test('gold-only tasks: the tasks a solutions folder marks gold_only are listed with the reason; a broken solution file is an invalid file', async () => {
    const root = mkdtempSync(join(tmpdir(), 'deskbench-check-gold-'));
    mkdirSync(join(root, 'tasks', 'os'), { recursive: true });
    mkdirSync(join(root, 'sol', 'osworld'), { recursive: true });
    writeFileSync(join(root, 'tasks', 'os', 'aaa.json'), JSON.stringify({ id: 'aaa', instruction: 'x', evaluator: { func: 'infeasible' } }));
    writeFileSync(join(root, 'sol', 'osworld', 'aaa.json'), JSON.stringify({ id: 'aaa', gold_only: 'the gold notebook has a comment nobody sees' }));
    const run = await deskbench(['check', join(root, 'tasks'), '--solutions', join(root, 'sol'), '--json']);
    expect(run.code).toBe(0);
    expect(json(run.stdout).goldOnly).toEqual([{ id: 'aaa', format: 'osworld', file: join(root, 'tasks', 'os', 'aaa.json'), reason: 'the gold notebook has a comment nobody sees' }]);
    const text = await deskbench(['check', join(root, 'tasks'), '--solutions', join(root, 'sol')]);
    expect(text.stdout).toContain('Gold-only tasks (1: the checker wants text only a gold file holds, so no honest solution passes):');
    expect(text.stdout).toContain(`${relative(ROOT, join(root, 'tasks', 'os', 'aaa.json'))}: the gold notebook has a comment nobody sees`);
    writeFileSync(join(root, 'sol', 'osworld', 'aaa.json'), JSON.stringify({ id: 'aaa', gold_only: '' }));
    const broken = await deskbench(['check', join(root, 'tasks'), '--solutions', join(root, 'sol'), '--json']);
    expect(broken.code).toBe(1);
    expect(json(broken.stdout).errors).toEqual([expect.objectContaining({ file: join(root, 'sol', 'osworld', 'aaa.json'), path: 'gold_only' })]);
  });

  test.skipIf(!existsSync(CORPORA))("GUI-OS: deskbench's own solutions/ marks three tasks gold_only (skipped when ../shared/corpora is absent)", async () => {
    const report = json((await deskbench(['check', join(CORPORA, 'guios'), '--json'])).stdout);
    expect(report.goldOnly.map((task) => task.id.slice(0, 8)).sort()).toEqual(['040af931', '214d5a3c', '40f8424e']);
  });

  test('a hostile task id (../) makes the file invalid, not runnable: exit 1, the error at id', async () => {
    const run = await deskbench(['check', join(ROOT, 'fixtures/hostile'), '--json']);
    expect(run.code).toBe(1);
    const report = json(run.stdout);
    expect(report.tasks).toBe(0);
    expect(report.runnable).toBe(0);
    expect(report.errors).toEqual([
      expect.objectContaining({ path: 'id', line: 2, column: 9, message: expect.stringMatching(/^expected the task id to be a safe folder name/) }),
    ]);
  });

  test('broken JSON under a folder is reported whatever its name; inputs inside a task folder are not', async () => {
    const root = mkdtempSync(join(tmpdir(), 'deskbench-check-'));
    mkdirSync(join(root, 'examples', 'dbt', 'abc'), { recursive: true });
    writeFileSync(join(root, 'examples', 'dbt', 'abc', 'abc.json'), JSON.stringify({ id: 'abc', instruction: 'x', evaluator: { func: 'infeasible' } }));
    writeFileSync(join(root, 'examples', 'dbt', 'abc', 'connection.json'), '{ "broken": on purpose }');
    writeFileSync(join(root, 'examples', 'draft.json'), '{\n  "id": "x",\n  "instruction": "y"\n');
    const run = await deskbench(['check', root]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^1 tasks .*; 1 invalid files; 1 runnable/);
    expect(run.stdout).toContain(`${relative(ROOT, join(root, 'examples', 'draft.json'))}:4:1: not valid JSON`);
    expect(run.stdout).not.toContain('connection.json');
  });

  test('names the files that use each unimplemented name (capped), and --strict fails on them for CI', async () => {
    const root = mkdtempSync(join(tmpdir(), 'deskbench-check-'));
    const dir = join(root, 'examples', 'os');
    mkdirSync(dir, { recursive: true });
    for (let i = 1; i <= 5; i++) {
      const config = i <= 4 ? [{ type: 'teleport', parameters: {} }] : [];
      writeFileSync(join(dir, `t${i}.json`), JSON.stringify({ id: `t${i}`, instruction: 'x', config, evaluator: { func: i === 5 ? 'no_such_metric' : 'infeasible' } }));
    }
    const text = await deskbench(['check', root], BIN, root);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/MISSING teleport\s+4 tasks\n\s+in examples\/os\/t1\.json, examples\/os\/t2\.json, examples\/os\/t3\.json and 1 more\n/);
    expect(text.stdout).toMatch(/MISSING no_such_metric\s+1 tasks\n\s+in examples\/os\/t5\.json\n/);
    const report = json((await deskbench(['check', root, '--json'])).stdout);
    expect(report.usage.steps.find((row) => row.name === 'teleport')?.files?.map((file) => file.slice(dir.length + 1))).toEqual(['t1.json', 't2.json', 't3.json', 't4.json']);
    expect((await deskbench(['check', root, '--strict'])).code).toBe(1);
    expect((await deskbench(['check', join(ROOT, 'fixtures/tasks/valid/osworld/examples/os'), '--strict'])).code).toBe(0);
  });

  test('a task that runs a program the desktop lacks is not runnable: the program, why, and the files are named; --strict fails', async () => {
    const root = mkdtempSync(join(tmpdir(), 'deskbench-check-'));
    const dir = join(root, 'examples', 'multi_apps');
    mkdirSync(dir, { recursive: true });
    const task = (id: string, command: unknown, shell = false) =>
      writeFileSync(join(dir, `${id}.json`), JSON.stringify({ id, instruction: 'x', config: [{ type: 'execute', parameters: { command, shell } }], evaluator: { func: 'infeasible' } }));
    task('blender', ['/usr/bin/blender', '--background']);
    task('pip', 'pip install pandas && python -c "import pandas"', true);
    task('ok', 'mkdir -p ~/x && ./setup.sh | tee log', true);
    // A Windows task's commands are Windows ones: they are not counted against the Linux desktop.
    mkdirSync(join(root, 'examples_windows', 'os'), { recursive: true });
    writeFileSync(join(root, 'examples_windows', 'os', 'win.json'), JSON.stringify({ id: 'win', instruction: 'x', config: [{ type: 'execute', parameters: { command: ['powershell'] } }], evaluator: { func: 'infeasible' } }));
    const report = json((await deskbench(['check', root, '--json'], BIN, root)).stdout);
    expect(report.runnable).toBe(1);
    expect(report.unsupported.programs).toEqual({ blender: 1, pip: 1 });
    const rows = Object.fromEntries(report.usage.programs.map((row) => [row.name, row]));
    expect(rows.blender).toEqual({ name: 'blender', tasks: 1, implemented: false, files: [join(dir, 'blender.json')], reason: expect.stringContaining('src/desktop/provided-commands.ts') });
    expect(rows.pip.reason).toMatch(/PyPI/);
    expect(rows.python).toMatchObject({ implemented: true, tasks: 1 });
    expect(rows.powershell).toBeUndefined();
    expect(Object.keys(rows).sort()).toEqual(['blender', 'mkdir', 'pip', 'python', 'tee']);
    const text = await deskbench(['check', root], BIN, root);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^4 tasks .*; 0 invalid files; 1 runnable/);
    expect(text.stdout).toContain('Programs the tasks run in the desktop (5 in use, 2 not in the desktop image):');
    expect(text.stdout).toMatch(/MISSING blender\s+1 tasks\n\s+not in the desktop image's table .*\n\s+in examples\/multi_apps\/blender\.json\n/);
    expect((await deskbench(['check', root, '--strict'])).code).toBe(1);
  });

  test('usage errors exit 2, and the usage text documents the exit codes', async () => {
    const run = await deskbench(['check', '--no-such-option']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Exit codes: 0 every file is valid; 1 some file is invalid');
    expect(run.stderr).toContain('--strict');
  });

  test('`deskbench <command> --help` prints the usage and exits 0, for every command', async () => {
    for (const command of ['check', 'verify', 'image']) {
      const run = await deskbench([command, '--help']);
      expect({ command, code: run.code, stderr: run.stderr }).toEqual({ command, code: 0, stderr: '' });
      expect(run.stdout).toContain('usage: deskbench check');
    }
  });

  test("the user's setup steps, getters and metrics count as implemented once --extensions imports them", async () => {
    const without = json((await deskbench(['check', EXTENSION_TASKS, '--json'])).stdout);
    expect(without.unsupported).toEqual({ steps: { write_marker: 1 }, getters: { marker_file: 1 }, metrics: { marker_equals: 1 }, programs: {} });
    expect(without.runnable).toBe(0);
    const withExtension = json((await deskbench(['check', EXTENSION_TASKS, '--json', '--extensions', MARKER])).stdout);
    expect(withExtension.unsupported).toEqual({ steps: {}, getters: {}, metrics: {}, programs: {} });
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
    // What the package ships, without dist/ (bin/ reads scripts/node-version.js first).
    for (const part of ['bin', 'scripts', 'src', 'package.json']) cpSync(join(ROOT, part), join(installed, part), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(installed, 'node_modules'));
    const run = await deskbench(['check', EXTENSION_TASKS], join(installed, 'bin/deskbench.js'), project);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`deskbench: ${join(installed, 'dist/node/cli/main.js')} is missing: this copy of deskbench was installed without its build`);
  });

  describe('without paths: the tasks of the deskbench plugin in the vitest config', () => {
    /** A project folder with this vitest config, resolving vitest through deskbench's own node_modules. */
    const project = (config: string) => {
      const dir = mkdtempSync(join(tmpdir(), 'deskbench-check-config-'));
      symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
      writeFileSync(join(dir, 'vitest.config.ts'), config);
      return dir;
    };

    test('reads the tasks and the extensions of the plugin, as `npx deskbench check` in the project', async () => {
      const dir = project(`import { defineConfig } from 'vitest/config';
import { deskbench } from ${JSON.stringify(join(ROOT, 'src/node/plugin/index.ts'))};
export default defineConfig({ plugins: [deskbench({ tasks: ['tasks'], extensions: [${JSON.stringify(MARKER)}] })] });
`);
      cpSync(EXTENSION_TASKS, join(dir, 'tasks'), { recursive: true });
      const text = await deskbench(['check'], BIN, dir);
      expect(text.code, text.stderr).toBe(0);
      expect(text.stdout).toContain('tasks of the deskbench plugin in vitest.config.ts: tasks\n');
      // The config's extensions are imported, so their names count as implemented.
      expect(text.stdout).toContain('1 tasks (osworld 1, spider2v 0, guios 0); 0 invalid files; 1 runnable');
      const report = json((await deskbench(['check', '--json'], BIN, dir)).stdout);
      expect(report.unsupported).toEqual({ steps: {}, getters: {}, metrics: {}, programs: {} });
    });

    test("inline projects count too (deskbench's own config: the examples project); --config names another file", async () => {
      const report = json((await deskbench(['check', '--json'])).stdout);
      expect(report.tasks).toBe(13);
      // Paths stay relative to where the command runs, as vitest's root does.
      const dir = project('export default {};\n');
      writeFileSync(join(dir, 'bench.config.ts'), `import { deskbench } from ${JSON.stringify(join(ROOT, 'src/node/plugin/index.ts'))};
export default { plugins: [deskbench({ tasks: ${JSON.stringify(relative(dir, join(ROOT, 'fixtures/tasks/runner')))} })] };
`);
      const viaFlag = json((await deskbench(['check', '--json', '--config', 'bench.config.ts'], BIN, dir)).stdout);
      expect(viaFlag.tasks).toBe(4);
    });

    test('no vitest config: exit 2, saying what to do', async () => {
      const run = await deskbench(['check'], BIN, mkdtempSync(join(tmpdir(), 'deskbench-check-empty-')));
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/deskbench check: no task paths given, and no vitest config in \S+ \(looked for vitest\.config\.ts, vitest\.config\.mts, …\): give the task folders \(deskbench check tasks\/\)/);
    });

    test('a config without the deskbench plugin: exit 2, naming the file', async () => {
      const dir = project(`import { defineConfig } from 'vitest/config';\nexport default defineConfig({ test: { include: ['test/**'] } });\n`);
      const run = await deskbench(['check'], BIN, dir);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain("deskbench check: vitest.config.ts does not use the deskbench plugin (plugins: [deskbench({ tasks: 'tasks' })]): add it, or give the task folders");
    });
  });
});
