// A new user's first run: options that cannot work stop the run at once with one clear message, before any desktop
// starts and without touching earlier results; the plugin adds its task files to the project's own tests.
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { listTests, vitestCli } from './run-vitest.ts';

const PLUGIN = resolve(import.meta.dirname, '../../src/node/plugin/index.ts');
const TASKS = resolve(import.meta.dirname, '../../fixtures/tasks/valid');

/** A fresh project whose vitest config calls deskbench() with these options (as source text). */
function project(options: string, extraFiles: Record<string, string> = {}): string {
  const root = mkdtempSync(join(tmpdir(), 'deskbench-first-run-'));
  writeFileSync(join(root, 'vitest.config.ts'), `import { deskbench } from ${JSON.stringify(PLUGIN)};\nexport default { plugins: [deskbench(${options})] };\n`);
  for (const [name, text] of Object.entries(extraFiles)) writeFileSync(join(root, name), text);
  // An earlier run's results, which a run that cannot start must leave alone.
  mkdirSync(join(root, 'results'));
  writeFileSync(join(root, 'results/report.json'), '{"earlier": true}\n');
  return root;
}

const output = (run: { stdout: string; stderr: string }) => run.stdout + run.stderr;

describe('fail fast, once, before any desktop starts', () => {
  test('a tasks path that does not exist, beside one that does', async () => {
    const root = project(`{ tasks: [${JSON.stringify(TASKS)}, 'tasks/misspelled'] }`);
    const run = await vitestCli(root, ['run']);
    expect(run.code).not.toBe(0);
    expect(output(run)).toContain(`${join(root, 'tasks/misspelled')}: no such file or folder`);
    expect(readFileSync(join(root, 'results/report.json'), 'utf8')).toBe('{"earlier": true}\n');
  }, 120_000);

  test('a glob that matches nothing', async () => {
    const run = await vitestCli(project(`{ tasks: 'tasks/**/*.json' }`), ['list']);
    expect(run.code).not.toBe(0);
    expect(output(run)).toContain('the glob matches no file');
  }, 120_000);

  test('an unknown agent name, with the built-in it is close to', async () => {
    const run = await vitestCli(project(`{ tasks: ${JSON.stringify(TASKS)}, agent: 'scriptd' }`), ['run']);
    expect(run.code).not.toBe(0);
    expect(output(run)).toContain('unknown agent "scriptd": expected a built-in agent (scripted, noop, fail, openai, anthropic)');
    expect(output(run)).toContain('did you mean "scripted"?');
    const module = await vitestCli(project(`{ tasks: ${JSON.stringify(TASKS)}, agent: './my-agnet.ts' }`), ['run']);
    expect(output(module)).toMatch(/agent module .*my-agnet\.ts does not exist/);
  }, 120_000);

  test('no Docker engine: one error naming DOCKER_HOST and the fix, and earlier results untouched', async () => {
    const root = project(`{ tasks: ${JSON.stringify(TASKS)} }`);
    const run = await vitestCli(root, ['run'], { DOCKER_HOST: 'tcp://127.0.0.1:1' });
    expect(run.code).not.toBe(0);
    const text = output(run);
    expect(text).toContain('no Docker engine answers (DOCKER_HOST=tcp://127.0.0.1:1)');
    expect(text).toContain('npx deskbench image --docker');
    // Said once, by the global setup, not once per task.
    expect(text.split('no Docker engine answers').length - 1).toBeLessThanOrEqual(2);
    expect(readFileSync(join(root, 'results/report.json'), 'utf8')).toBe('{"earlier": true}\n');
  }, 120_000);
});

describe("the project's own tests stay", () => {
  test('without an include of its own, vitest\'s default include and the task files both apply', async () => {
    const root = project(`{ tasks: ${JSON.stringify(TASKS)} }`, { 'math.test.ts': `import { test, expect } from 'vitest';\ntest('adds', () => expect(1 + 1).toBe(2));\n` });
    const entries = await listTests(root);
    expect(entries.map((entry) => entry.name)).toContain('adds');
    expect(entries.filter((entry) => entry.file.endsWith('.json')).length).toBeGreaterThan(0);
  }, 120_000);

  test('with an include of its own, both the project tests and the task files', async () => {
    const root = mkdtempSync(join(tmpdir(), 'deskbench-first-run-'));
    mkdirSync(join(root, 'spec'));
    writeFileSync(join(root, 'spec/math.check.ts'), `import { test, expect } from 'vitest';\ntest('multiplies', () => expect(2 * 3).toBe(6));\n`);
    writeFileSync(join(root, 'vitest.config.ts'), `import { deskbench } from ${JSON.stringify(PLUGIN)};\nexport default { plugins: [deskbench({ tasks: ${JSON.stringify(TASKS)} })], test: { include: ['spec/*.check.ts'] } };\n`);
    const names = (await listTests(root)).map((entry) => entry.name);
    expect(names).toContain('multiplies');
    expect(names.some((name) => name.startsWith('os/'))).toBe(true);
  }, 120_000);

  test('task paths through a symlink list the same tests as the real path (vite hands the plugin the real file)', async () => {
    const direct = (await listTests(project(`{ tasks: ${JSON.stringify(TASKS)} }`))).map((entry) => entry.name);
    const root = project(`{ tasks: 'linked' }`);
    symlinkSync(TASKS, join(root, 'linked'));
    const linked = await listTests(root);
    expect(direct.length).toBeGreaterThan(0);
    expect(linked.map((entry) => entry.name).sort()).toEqual(direct.sort());
  }, 120_000);
});
