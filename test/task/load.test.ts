import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadTasks, readTaskFile } from '../../src/adapters/load.ts';
import type { ConjNode, MetricNode, Task } from '../../src/task/types.ts';

const FIXTURES = resolve(import.meta.dirname, '../../fixtures/tasks');
const CORPORA = resolve(import.meta.dirname, '../../../shared/corpora');
const haveCorpora = existsSync(CORPORA);
const corporaMissing = 'the shared corpora are not beside the project (../shared/corpora)';

function only(inputs: string[]): Task {
  const { tasks, errors } = loadTasks(inputs);
  expect(errors).toEqual([]);
  expect(tasks).toHaveLength(1);
  return tasks[0];
}

describe('normalized model from each format', () => {
  test('OSWorld: conj list, options list with null, postconfig, flags, extra fields, solution', () => {
    const task = only([join(FIXTURES, 'valid/osworld/examples/os/5f0c3b1e-0000-4000-8000-000000000001.json')]);
    expect(task).toMatchObject({ format: 'osworld', domain: 'os', platform: 'ubuntu', relatedApps: ['os', 'terminal'] });
    expect(task.setup).toEqual([{ type: 'execute', parameters: { command: ['mkdir', '-p', '/home/user/Desktop'] } }]);
    expect(task.evaluator?.postconfig).toEqual([{ type: 'sleep', parameters: { seconds: 0.1 } }]);
    const root = task.evaluator?.root as ConjNode;
    expect(root.kind).toBe('conj');
    expect(root.conj).toBe('or');
    expect(root.children).toHaveLength(2);
    const [first, second] = root.children as MetricNode[];
    expect(first).toMatchObject({ func: 'exact_match', result: { type: 'vm_command_line' }, expected: { type: 'rule' }, options: {} });
    expect(second.options).toEqual({}); // null options become {}
    expect(task.extra).toMatchObject({ _note: 'kept as an extra field', proxy: false, snapshot: 'os', trajectory: 'trajectories/' });
    expect(task.solution).toHaveLength(2);
    expect(task.flags).toEqual({ infeasible: false, needsNetwork: false, needsDownload: false, needsAccount: false });
  });

  test('OSWorld: a live website in setup marks the task as needing the internet', () => {
    const task = only([join(FIXTURES, 'valid/osworld/examples/chrome/5f0c3b1e-0000-4000-8000-000000000004.json')]);
    expect(task.flags.needsNetwork).toBe(true);
    expect(task.evaluator?.root).toMatchObject({ kind: 'metric', func: 'is_expected_bookmarks', result: { type: 'bookmarks' } });
  });

  test('Spider2-V: tags, action_number, counterpart, its own step and getter types', () => {
    const task = only([join(FIXTURES, 'valid/spider2v/examples')]);
    expect(task).toMatchObject({ format: 'spider2v', domain: 'jupyter', stepHint: 3, counterpart: '5f0c3b1e-0000-4000-8000-000000000003' });
    expect(task.tags).toEqual(['gui', 'abstract', 'traditional_data_processing']);
    expect(task.setup[0].type).toBe('copyfile_from_host_to_guest');
    expect(task.evaluator?.root).toMatchObject({ kind: 'metric', result: { type: 'vm_script_output' } });
  });

  test('GUI-OS: func/arguments steps, a legacy step marked as skipped, vm_/local_ arguments become getters', () => {
    const task = only([join(FIXTURES, 'valid/guios/examples')]);
    expect(task.format).toBe('guios');
    expect(task.dir).toMatch(/5f0c3b1e-0000-4000-8000-000000000003$/);
    expect(task.setup[0]).toEqual({ type: 'upload_file_to_vm', parameters: { local_path: 'notebook.ipynb', remote_path: '/home/user/Desktop/notebook.ipynb' } });
    expect(task.setup[1].ignoredBecause).toMatch(/legacy/);
    const root = task.evaluator?.root as ConjNode;
    expect(root).toMatchObject({ kind: 'conj', conj: 'or' });
    expect(root.children[0]).toEqual({
      kind: 'metric',
      func: 'compare_notebook_cells',
      result: { type: 'vm_file', path: '/home/user/Desktop/notebook.ipynb', dest: 'notebook.ipynb' },
      expected: { type: 'local_file', path: 'notebook_gold.ipynb' },
      options: {},
    });
    expect(root.children[1]).toMatchObject({ func: 'is_jupyter_cell_executed', expected: undefined, options: { expected: [] } });
  });

  test('an index file selects the tasks it lists', () => {
    const { tasks, errors, indexFiles } = loadTasks([join(FIXTURES, 'valid/osworld/test_fixture.json')]);
    expect(errors).toEqual([]);
    expect(indexFiles).toHaveLength(1);
    expect(tasks.map((t) => t.id)).toEqual(['5f0c3b1e-0000-4000-8000-000000000001']);
  });

  test.skipIf(!haveCorpora)('real corpora: every file of the three formats loads (skipped when ' + corporaMissing + ')', () => {
    const { tasks, errors } = loadTasks([CORPORA]);
    // Spider2-V ships its task template as JSON with // comments: a broken JSON file, reported at its first comment.
    expect(errors.map((e) => [e.file.slice(CORPORA.length), e.location])).toEqual([['/spider2v/examples/template.json', { line: 14, column: 20 }]]);
    const count = (format: string, platform = 'ubuntu') => tasks.filter((t) => t.format === format && t.platform === platform).length;
    expect([count('osworld'), count('osworld', 'windows'), count('spider2v'), count('guios')]).toEqual([369, 49, 494, 44]);
    // A GUI-OS evaluate_multiple_notebooks task and a no-evaluator-free GUI-OS task from the real corpus.
    const multi = tasks.find((t) => t.format === 'guios' && t.evaluator?.root.kind === 'conj');
    expect(multi).toBeDefined();
    // OSWorld infeasible tasks: 29 in test_all use func "infeasible".
    expect(tasks.filter((t) => t.format === 'osworld' && t.platform === 'ubuntu' && t.flags.infeasible)).toHaveLength(29);
    // Spider2-V's own `account` tag is kept and flagged.
    expect(tasks.filter((t) => t.format === 'spider2v' && t.flags.needsAccount)).toHaveLength(170);
  });

  test.skipIf(!haveCorpora)('real OSWorld index test_small.json selects its 39 tasks (skipped when ' + corporaMissing + ')', () => {
    const { tasks, errors } = loadTasks([join(CORPORA, 'osworld/test_small.json')]);
    expect(errors).toEqual([]);
    expect(tasks).toHaveLength(39);
  });
});

describe('bad input: one error naming the file, the JSON path and what was expected', () => {
  const dir = join(FIXTURES, 'invalid/examples/os');
  const errorOf = (name: string) => {
    const result = readTaskFile(join(dir, name), { explicit: true });
    if (result.kind !== 'error') throw new Error(`expected an error for ${name}, got ${result.kind}`);
    return result.error;
  };

  test('not JSON', () => {
    const error = errorOf('5f0c3b1e-0000-4000-8000-00000000000a.json');
    expect(error.file).toBe(join(dir, '5f0c3b1e-0000-4000-8000-00000000000a.json'));
    expect(error.path).toBe('');
    expect(error.message).toMatch(/5f0c3b1e-0000-4000-8000-00000000000a\.json:4:1: not valid JSON/);
  });

  test('missing instruction', () => {
    const error = errorOf('5f0c3b1e-0000-4000-8000-00000000000b.json');
    expect(error.path).toBe('instruction');
    expect(error.message).toMatch(/at instruction: missing required field: expected the instruction \(string\)/);
  });

  test('wrong type in a step', () => {
    const error = errorOf('5f0c3b1e-0000-4000-8000-00000000000c.json');
    expect(error.path).toBe('config[1].type');
    expect(error.message).toContain('expected a step type name (string)');
  });

  test('malformed evaluator: lists of different lengths', () => {
    const error = errorOf('5f0c3b1e-0000-4000-8000-00000000000d.json');
    expect(error.path).toBe('evaluator.result');
    expect(error.message).toContain('expected a list of 2 entries, one per metric in func (got 1)');
  });

  test('a folder with broken files still loads the good ones, and inputs that are not tasks are left alone', () => {
    const { tasks, errors } = loadTasks([join(FIXTURES, 'invalid'), join(FIXTURES, 'valid/osworld/examples/os')]);
    expect(tasks.map((t) => t.id)).toEqual(['5f0c3b1e-0000-4000-8000-000000000001']);
    expect(errors.map((e) => e.file.split('/').pop()).sort()).toEqual([
      '5f0c3b1e-0000-4000-8000-00000000000a.json',
      '5f0c3b1e-0000-4000-8000-00000000000b.json',
      '5f0c3b1e-0000-4000-8000-00000000000c.json',
      '5f0c3b1e-0000-4000-8000-00000000000d.json',
    ]);
  });

  test('a missing path and an index entry that does not resolve are errors too', () => {
    const { errors } = loadTasks([join(FIXTURES, 'nope')]);
    expect(errors[0].message).toContain('no such file or folder');
  });
});

describe('broken JSON while walking a folder', () => {
  test('reported whatever its name; a broken input inside a task folder (<id>/ beside <id>.json) is left alone', () => {
    const root = mkdtempSync(join(tmpdir(), 'deskbench-broken-json-'));
    mkdirSync(join(root, 'examples', 'jupyter', 'abc'), { recursive: true });
    writeFileSync(join(root, 'examples', 'notes.json'), '{\n  "a": 1,\n}');
    writeFileSync(join(root, 'test_all.json'), '{ "os": ["abc" }');
    writeFileSync(join(root, 'examples', 'jupyter', 'abc', 'abc.json'), JSON.stringify({ id: 'abc', instruction: 'x', evaluator: { func: 'infeasible' } }));
    writeFileSync(join(root, 'examples', 'jupyter', 'abc', 'config.json'), '{ broken on purpose');
    writeFileSync(join(root, 'examples', 'settings.json'), '{"not": "a task"}');
    const { tasks, errors } = loadTasks([root]);
    expect(tasks.map((t) => t.id)).toEqual(['abc']);
    expect(errors.map((e) => [e.file.slice(root.length), e.location])).toEqual([
      ['/examples/notes.json', { line: 3, column: 1 }],
      ['/test_all.json', { line: 1, column: 16 }],
    ]);
    expect(errors[0].message).toMatch(/notes\.json:3:1: not valid JSON/);
  });
});

describe('hostile index files', () => {
  test('an entry that is not a safe folder name is an error; nothing outside examples/ is loaded', () => {
    const root = mkdtempSync(join(tmpdir(), 'deskbench-hostile-index-'));
    mkdirSync(join(root, 'data', 'examples'), { recursive: true });
    writeFileSync(join(root, 'outside.json'), JSON.stringify({ id: 'outside', instruction: 'x', evaluator: { func: 'infeasible' } }));
    writeFileSync(join(root, 'data', 'test_all.json'), JSON.stringify({ '..': ['outside'], os: ['../../outside'] }));
    const { tasks, errors } = loadTasks([join(root, 'data', 'test_all.json')]);
    expect(tasks).toEqual([]);
    expect(errors.map((e) => [e.path, e.detail])).toEqual([
      ['..[0]', 'expected a domain and a task id that are safe folder names (got "../outside")'],
      ['os[0]', 'expected a domain and a task id that are safe folder names (got "os/../../outside")'],
    ]);
  });
});

describe('hostile ids: a task id names its results folder, so it must be one safe path segment', () => {
  const write = (id: unknown) => {
    const dir = mkdtempSync(join(tmpdir(), 'deskbench-hostile-id-'));
    const file = join(dir, 'task.json');
    writeFileSync(file, JSON.stringify({ id, instruction: 'x', evaluator: { func: 'infeasible' } }));
    return file;
  };

  test.each(['../escape', '../../../../tmp/x', 'a/b', 'a\\b', '..', '.', '', 'has space', 'nul\0byte', 'x'.repeat(129)])('refuses the id %j', (id) => {
    const file = write(id);
    const result = readTaskFile(file, { explicit: true });
    expect(result.kind).toBe('error');
    if (result.kind !== 'error') return;
    expect(result.error.file).toBe(file);
    expect(result.error.path).toBe('id');
    expect(result.error.message).toMatch(/at id: expected the task id to be (a safe folder name|a folder name)/);
  });

  test.each(['5f0c3b1e-0000-4000-8000-000000000001', 'my_task.v2', 'x'.repeat(128)])('accepts the id %j', (id) => {
    expect(readTaskFile(write(id), { explicit: true }).kind).toBe('task');
  });
});
