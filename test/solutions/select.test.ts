// What deskbench verify selects before any desktop starts: solved tasks (main and second solutions), gold-only tasks,
// and solutions whose task is absent from the corpus their folder solves.
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { selectForVerify } from '../../src/node/verify/select.ts';
import { planRuns } from '../../src/node/verify/verify.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const CORPORA = resolve(ROOT, '../shared/corpora');

function folder(files: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'deskbench-select-'));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), JSON.stringify(content));
  }
  return dir;
}

const task = (id: string, infeasible = false) => ({ id, instruction: `Task ${id}.`, config: [], evaluator: infeasible ? { func: 'infeasible' } : { func: 'exact_match', result: { type: 'vm_command_line', command: 'true' }, expected: { type: 'rule', rules: { expected: '' } } } });
const solution = (id: string) => ({ id, note: 'n', solution: [['DONE']] });

describe('selectForVerify', () => {
  const dir = folder({
    'corpus/os/aaa.json': task('aaa'),
    'corpus/os/bbb.json': task('bbb', true),
    'corpus/chrome/ccc.json': task('ccc'),
    'corpus/chrome/ddd.json': task('ddd'),
    'sol/osworld/aaa.json': solution('aaa'),
    'sol/osworld/aaa.gui.json': solution('aaa'),
    'sol/osworld/bbb.gui.json': solution('bbb'),
    'sol/osworld/ccc.json': solution('ccc'),
    'sol/osworld/ddd.json': { id: 'ddd', gold_only: 'why' },
    'other/osworld/zzz.json': solution('zzz'),
  });

  test('solved: main or second solution; gold-only listed apart; a folder that solves none of the tasks is not checked for absent ones', () => {
    const selection = selectForVerify(['corpus'], [join(dir, 'sol'), join(dir, 'other')], dir);
    expect(selection.errors).toEqual([]);
    expect(selection.solved.map((t) => t.id).sort()).toEqual(['aaa', 'bbb', 'ccc']);
    expect(selection.goldOnly.map(({ task: t, mark }) => [t.id, mark.reason])).toEqual([['ddd', 'why']]);
    const plan = planRuns(selection.solved, selection.solutions);
    expect(plan.map(({ run, tasks }) => [run.name, tasks.map((t) => t.id).sort()])).toEqual([
      ['scripted', ['aaa', 'ccc']],
      ['scripted.gui', ['aaa', 'bbb']],
      ['noop', ['aaa', 'bbb', 'ccc']],
      ['fail', ['bbb']],
    ]);
  });

  test('a subset of the corpus checks the solutions against the whole corpus', () => {
    const selection = selectForVerify(['corpus/os/aaa.json'], [join(dir, 'sol')], dir);
    expect(selection.errors).toEqual([]);
    expect(selection.solved.map((t) => t.id)).toEqual(['aaa']);
  });

  test('a solution for a task the corpus lacks is an error with a code, naming the file and id', () => {
    const more = folder({ 'corpus/os/aaa.json': task('aaa'), 'sol/osworld/aaa.json': solution('aaa'), 'sol/osworld/gone.json': solution('gone') });
    const [error] = selectForVerify(['corpus'], [join(more, 'sol')], more).errors;
    expect({ code: error.code, file: error.file, path: error.path }).toEqual({ code: 'DESKBENCH_SOLUTION_TASK_ABSENT', file: join(more, 'sol/osworld/gone.json'), path: 'id' });
    expect(error.message).toContain('no task gone in corpus');
  });
});

describe.skipIf(!existsSync(CORPORA))("the repository's solutions/ on the real corpora (skipped without ../shared/corpora)", () => {
  test.each([['osworld'], ['guios']])('%s: every solution names a task of the corpus, and a one-task subset has no error either', (corpus) => {
    const selection = selectForVerify([join(CORPORA, corpus)], [join(ROOT, 'solutions')], ROOT);
    expect(selection.errors).toEqual([]);
    const one = selection.solved[0];
    expect(selectForVerify([one.file], [join(ROOT, 'solutions')], ROOT).errors).toEqual([]);
  });
});
