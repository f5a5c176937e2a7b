// Shipped solution files: read and validated with errors naming the file and field; a task's own solution wins; and
// the repository's own solutions/ folder is valid, each file naming a task of the corpus (when the corpus is here).
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadSolutions, withSolution } from '../../src/solutions/load.ts';
import { loadTasks } from '../../src/task/load.ts';

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
    const shadowed = new Map(solutions).set('osworld/0f5e0a1c-free-pass', { file: 'x.json', format: 'osworld', id: own.id, note: 'n', solution: [['FAIL']] });
    expect(withSolution(own, shadowed).solution).toEqual(own.solution);
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
      if (!task) continue;
      const actions = entry.solution.flat();
      if (task.flags.infeasible) expect(actions.at(-1), entry.file).toBe('FAIL');
      else expect(actions, entry.file).not.toContain('FAIL');
    }
  });

  test.skipIf(!existsSync(CORPORA))('each file names a task of ../shared/corpora (skipped without the corpora)', () => {
    const { tasks } = loadTasks([join(CORPORA, 'osworld/examples'), join(CORPORA, 'guios'), join(CORPORA, 'spider2v')].filter(existsSync));
    const known = new Set(tasks.map((task) => `${task.format}/${task.id}`));
    expect([...solutions.keys()].filter((key) => !known.has(key))).toEqual([]);
  });
});
