// Shipped solution files: read and validated with errors naming the file and field; a task's own solution wins; and
// the repository's own solutions/ folder is valid, each file naming a task of the corpus (when the corpus is here).
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { goldOnlyMarkFor, loadSolutions, solutionFileFor, variantsOf, withSolution } from '../../src/solutions/load.ts';
import { loadTasks } from '../../src/adapters/load.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const CORPORA = resolve(ROOT, '../shared/corpora');

async function solutionsFolder(files: Record<string, unknown>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'deskbench-solutions-'));
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), typeof content === 'string' ? content : JSON.stringify(content));
  }
  return dir;
}

describe('loadSolutions', () => {
  test('reads <format>/<id>.json files, keyed by format and id', async () => {
    const dir = await solutionsFolder({ 'osworld/abc.json': { id: 'abc', note: 'gives up', solution: [['FAIL']] } });
    const solutions = loadSolutions([dir]);
    expect([...solutions.keys()]).toEqual(['osworld/abc']);
    expect(solutions.get('osworld/abc')).toMatchObject({ id: 'abc', format: 'osworld', note: 'gives up', solution: [['FAIL']], file: join(dir, 'osworld/abc.json') });
  });

  test.each([
    ['a missing note', { 'osworld/abc.json': { id: 'abc', solution: [['FAIL']] } }, /osworld\/abc\.json at note: expected a note/],
    ['an action that is neither code nor an object', { 'osworld/abc.json': { id: 'abc', note: 'n', solution: [[42]] } }, /abc\.json at solution\[0\]\[0\]: expected an action/],
    ['a step that is not a list', { 'osworld/abc.json': { id: 'abc', note: 'n', solution: ['FAIL'] } }, /abc\.json at solution\[0\]/],
    ['no steps', { 'osworld/abc.json': { id: 'abc', note: 'n', solution: [] } }, /abc\.json at solution: expected at least one step/],
    ['an unknown field', { 'osworld/abc.json': { id: 'abc', note: 'n', solution: [['FAIL']], answer: 1 } }, /abc\.json: .*answer/],
    ['an id that is not the file name', { 'osworld/abc.json': { id: 'abd', note: 'n', solution: [['FAIL']] } }, /abc\.json at id: the file must be named after the task id: abd\.json/],
    ['a folder that is not a format', { 'windows/abc.json': { id: 'abc', note: 'n', solution: [['FAIL']] } }, /abc\.json: a solution file must sit in a folder named after its format \(osworld, spider2v, guios\), not in "windows"/],
    ['broken JSON', { 'guios/abc.json': '{ "id": ' }, /guios\/abc\.json: not valid JSON/],
  ])('rejects %s, naming the file and the field', async (_name, files, message) => {
    const dir = await solutionsFolder(files);
    expect(() => loadSolutions([dir])).toThrow(message);
  });

  test('a second solution <id>.<variant>.json is keyed by its variant; a gold_only file marks the task with its reason', async () => {
    const dir = await solutionsFolder({
      'osworld/abc.json': { id: 'abc', note: 'in a terminal', solution: [['WAIT']] },
      'osworld/abc.gui.json': { id: 'abc', note: 'in the Settings app', solution: [['DONE']] },
      'guios/def.json': { id: 'def', gold_only: 'the checker wants a comment only the gold notebook has' },
    });
    const solutions = loadSolutions([dir]);
    expect([...solutions.keys()].sort()).toEqual(['guios/def', 'osworld/abc', 'osworld/abc.gui']);
    expect(solutions.get('osworld/abc.gui')).toMatchObject({ kind: 'solution', id: 'abc', variant: 'gui', solution: [['DONE']] });
    expect(solutions.get('guios/def')).toEqual({ kind: 'gold_only', id: 'def', format: 'guios', file: join(dir, 'guios/def.json'), reason: 'the checker wants a comment only the gold notebook has' });
    const task = { format: 'osworld', id: 'abc', solution: undefined } as const;
    expect(variantsOf(task, solutions)).toEqual(['gui']);
    expect(solutionFileFor(task, solutions)?.note).toBe('in a terminal');
    expect(solutionFileFor(task, solutions, 'gui')?.note).toBe('in the Settings app');
    expect(solutionFileFor({ format: 'guios', id: 'def', solution: undefined }, solutions)).toBeUndefined();
    expect(goldOnlyMarkFor({ format: 'guios', id: 'def' }, solutions)?.reason).toMatch(/^the checker wants/);
    expect(goldOnlyMarkFor(task, solutions)).toBeUndefined();
  });

  test.each([
    ['a variant name that is not lower-case words', { 'osworld/abc.GUI.json': { id: 'abc', note: 'n', solution: [['DONE']] } }, /abc\.GUI\.json at id: the file must be named after the task id: abc\.json, or abc\.<variant>\.json for a second solution \(such as abc\.gui\.json\)/],
    ['a gold_only mark named as a variant', { 'osworld/abc.gui.json': { id: 'abc', gold_only: 'why' } }, /abc\.gui\.json at id: the file must be named after the task id: abc\.json$/],
    ['an empty gold_only reason', { 'osworld/abc.json': { id: 'abc', gold_only: '' } }, /abc\.json at gold_only: expected gold_only: why the checker needs text found only in a gold file \(a non-empty string\)/],
    ['a gold_only mark with a solution too', { 'osworld/abc.json': { id: 'abc', gold_only: 'why', solution: [['DONE']] } }, /abc\.json: .*solution/],
    [
      'a gold_only mark beside a second solution',
      { 'osworld/abc.json': { id: 'abc', gold_only: 'why' }, 'osworld/abc.gui.json': { id: 'abc', note: 'n', solution: [['DONE']] } },
      /abc\.gui\.json at id: .*abc\.json marks abc gold_only, yet this file solves it/,
    ],
  ])('rejects %s, naming the file and the field', async (_name, files, message) => {
    const dir = await solutionsFolder(files);
    expect(() => loadSolutions([dir])).toThrow(message);
  });

  test('two folders solving one task is an error naming both files', async () => {
    const file = { 'osworld/abc.json': { id: 'abc', note: 'n', solution: [['FAIL']] } };
    const [a, b] = [await solutionsFolder(file), await solutionsFolder(file)];
    expect(() => loadSolutions([a, b])).toThrow(`${join(b, 'osworld/abc.json')} at id: a second solution for osworld/abc (the first is ${join(a, 'osworld/abc.json')})`);
  });

  test('a missing folder is an error naming it', () => {
    expect(() => loadSolutions(['/nonexistent/solutions'])).toThrow('/nonexistent/solutions: solutions folder cannot be read (ENOENT)');
  });
});

describe('withSolution', () => {
  const { tasks } = loadTasks(['fixtures/verify/tasks'], { cwd: ROOT });
  const solutions = loadSolutions([resolve(ROOT, 'fixtures/verify/solutions')]);

  test('gives a task without a solution its shipped one; a task with its own keeps it', () => {
    const unsolved = tasks.find((task) => task.id === '7c2d9e41-wrong-solution')!;
    const own = tasks.find((task) => task.id === '0f5e0a1c-free-pass')!;
    expect(unsolved.solution).toBeUndefined();
    expect(withSolution(unsolved, solutions).solution).toEqual([['WAIT']]);
    const shadowed: typeof solutions = new Map(solutions).set('osworld/0f5e0a1c-free-pass', { kind: 'solution', file: 'x.json', format: 'osworld', id: own.id, note: 'n', solution: [['FAIL']] });
    expect(withSolution(own, shadowed).solution).toEqual(own.solution);
  });

  test('with a variant, the second solution wins over the task\'s own; a task without that variant has none', () => {
    const own = tasks.find((task) => task.id === '0f5e0a1c-free-pass')!;
    const withGui: typeof solutions = new Map(solutions).set('osworld/0f5e0a1c-free-pass.gui', { kind: 'solution', file: 'x.gui.json', format: 'osworld', id: own.id, variant: 'gui', note: 'n', solution: [['FAIL']] });
    expect(withSolution(own, withGui, 'gui').solution).toEqual([['FAIL']]);
    const unsolved = tasks.find((task) => task.id === '7c2d9e41-wrong-solution')!;
    expect(withSolution(unsolved, withGui, 'gui').solution).toEqual([["import os; open(os.path.expanduser('~/verify-marker.txt'), 'w').write('hello\\n')"], ['DONE']]);
    expect(withSolution(unsolved, withGui, 'settings').solution).toBeUndefined();
  });

  test('matches the format as well as the id', () => {
    const unsolved = tasks.find((task) => task.id === '7c2d9e41-wrong-solution')!;
    expect(withSolution({ ...unsolved, format: 'guios' }, solutions).solution).toBeUndefined();
  });
});

describe("the repository's solutions/", () => {
  const solutions = loadSolutions([resolve(ROOT, 'solutions')]);

  test('every file is valid; infeasible solutions end with FAIL and the others never say FAIL', () => {
    expect(solutions.size).toBeGreaterThan(0);
    const { tasks } = existsSync(CORPORA) ? loadTasks([join(CORPORA, 'osworld/examples'), join(CORPORA, 'guios'), join(CORPORA, 'spider2v')].filter(existsSync)) : { tasks: [] };
    for (const entry of solutions.values()) {
      const task = tasks.find((candidate) => candidate.format === entry.format && candidate.id === entry.id);
      if (!task || entry.kind !== 'solution') continue;
      const actions = entry.solution.flat();
      if (task.flags.infeasible) expect(actions.at(-1), entry.file).toBe('FAIL');
      else expect(actions, entry.file).not.toContain('FAIL');
    }
  });

  test.skipIf(!existsSync(CORPORA))('each file names a task of ../shared/corpora (skipped without the corpora)', () => {
    const { tasks } = loadTasks([join(CORPORA, 'osworld/examples'), join(CORPORA, 'guios'), join(CORPORA, 'spider2v')].filter(existsSync));
    const known = new Set(tasks.map((task) => `${task.format}/${task.id}`));
    // Keyed <format>/<id> or, for a second solution, <format>/<id>.<variant>: the task is the entry's format and id.
    expect([...solutions.values()].map((entry) => `${entry.format}/${entry.id}`).filter((key) => !known.has(key))).toEqual([]);
    expect([...solutions.values()].filter((entry) => entry.kind === 'solution' && entry.variant).length).toBeGreaterThanOrEqual(15);
  });
});
