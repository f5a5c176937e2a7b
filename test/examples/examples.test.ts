// The example benchmark (examples/, `npm run examples`) as files: every task loads, covers the formats and domains it
// promises, names input and gold files that exist, and carries a solution. Running them, in desktop containers:
// test/examples/examples.desktop.test.ts.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { findSpider2vFile } from '../../src/adapters/spider2v/setup-steps.ts';
import { loadTasks } from '../../src/adapters/load.ts';
import type { EvalNode, GetterSpec, Task } from '../../src/task/types.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const { tasks, errors } = loadTasks(['examples'], { cwd: ROOT });
const byKey = (format: string, domain: string) => tasks.filter((task) => task.format === format && task.domain === domain);

describe('the example tasks', () => {
  test('every file loads, and each format and OSWorld domain the README promises is there', () => {
    expect(errors.map((error) => error.message)).toEqual([]);
    for (const domain of ['chrome', 'libreoffice_writer', 'libreoffice_calc', 'libreoffice_impress', 'gimp', 'os', 'vlc', 'multi_apps']) {
      expect(byKey('osworld', domain).filter((task) => !task.flags.infeasible).length, `an OSWorld ${domain} example`).toBeGreaterThan(0);
    }
    expect(tasks.filter((task) => task.format === 'guios').length).toBeGreaterThanOrEqual(2);
    const spider = tasks.filter((task) => task.format === 'spider2v');
    expect(spider.length).toBeGreaterThanOrEqual(1);
    for (const task of spider) {
      expect(task.tags.length).toBeGreaterThan(0);
      expect(task.stepHint).toBeGreaterThan(0);
      // Spider2-V pairs an abstract and a verbose instruction of one task through `counterpart`, both ways.
      const twin = spider.find((other) => other.id === task.counterpart);
      expect(twin?.counterpart, `${task.id}'s counterpart points back`).toBe(task.id);
      expect([task, twin!].map((t) => t.tags.find((tag) => tag === 'abstract' || tag === 'verbose')).sort()).toEqual(['abstract', 'verbose']);
    }
    expect(tasks.filter((task) => task.flags.infeasible).length).toBe(1);
    expect(new Set(tasks.map((task) => task.id)).size).toBe(tasks.length);
  });

  test('every example has a solution; the infeasible one ends with FAIL, the others never say FAIL', () => {
    for (const task of tasks) {
      expect(task.solution?.length, `${task.id} has a solution`).toBeGreaterThan(0);
      const actions = task.solution!.flat();
      if (task.flags.infeasible) expect(actions.at(-1)).toBe('FAIL');
      else expect(actions).not.toContain('FAIL');
    }
  });

  test('every input and gold file a task names exists inside its own folder (a task may not upload from elsewhere)', () => {
    for (const task of tasks) {
      for (const file of namedFiles(task)) {
        expect(existsSync(file), `${task.id} names ${file}`).toBe(true);
        expect(file.startsWith(`${task.dir}/`), `${task.id}: ${file} is inside ${task.dir}`).toBe(true);
      }
    }
  });
});

/** Host files a task reads: downloads, uploads, GUI-OS inputs and scripts, cloud/local gold files. */
function namedFiles(task: Task): string[] {
  const files: string[] = [];
  for (const step of task.setup) {
    const p = step.parameters;
    if (step.type === 'download') for (const f of p.files as { url: string }[]) files.push(resolve(task.dir, f.url));
    if (step.type === 'upload_file_to_vm' || step.type === 'upload_script_and_execute') files.push(resolve(task.dir, String(p.local_path)));
    if (step.type === 'copyfile_from_host_to_guest') files.push(findSpider2vFile(step.type, task.dir, String(p.src)));
  }
  const visit = (node: EvalNode | undefined): void => {
    if (!node || node.kind === 'infeasible') return;
    if (node.kind === 'conj') {
      for (const child of node.children) visit(child);
      return;
    }
    for (const getter of [node.result, node.expected] as (GetterSpec | undefined)[]) {
      if (getter?.type === 'cloud_file') files.push(resolve(task.dir, String(getter.path)));
      if (getter?.type === 'local_file') files.push(findSpider2vFile('local_file', task.dir, String(getter.path)));
    }
  };
  visit(task.evaluator?.root);
  return files;
}
