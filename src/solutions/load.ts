// Shipped solutions: known answers to corpus tasks, kept beside the corpus rather than in its task files.
// One file per task, `<folder>/<format>/<task id>.json` (format: osworld | spider2v | guios), holding
// `{ "id": "<task id>", "note": "<what the solution does>", "solution": [[action, …], …] }` — the steps the scripted
// agent replays. The plugin's `solutions` option lists such folders; a task's own `solution` field wins.
import { readFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { z } from 'zod';
import type { Action } from '../agent/types.ts';
import { TaskFileError, jsonPath } from '../task/errors.ts';
import { walkJsonFiles } from '../task/load.ts';
import { solution } from '../task/schema-parts.ts';
import type { SourceFormat, Task } from '../task/types.ts';

const SOLUTION_FORMATS: readonly SourceFormat[] = ['osworld', 'spider2v', 'guios'];

export interface SolutionFile {
  file: string;
  format: SourceFormat;
  id: string;
  note: string;
  solution: Action[][];
}

const solutionFileSchema = z.strictObject({
  id: z.string({ error: 'expected the task id (a string)' }).min(1, { error: 'expected the task id (a non-empty string)' }),
  note: z.string({ error: 'expected a note: one or two sentences saying what the solution does' }).min(1, { error: 'expected a non-empty note' }),
  solution: solution.min(1, { error: 'expected at least one step' }),
});

/** Solutions by `<format>/<id>`. */
export type Solutions = Map<string, SolutionFile>;

const keyOf = (format: string, id: string) => `${format}/${id}`;

/**
 * Reads every solution file under the folders. Throws one TaskFileError naming the file and field for the first bad
 * file: a broken solution would otherwise show up only as a failed task later.
 */
export function loadSolutions(folders: readonly string[]): Solutions {
  const solutions: Solutions = new Map();
  for (const folder of folders) {
    let files: string[];
    try {
      files = walkJsonFiles(folder);
    } catch (error) {
      throw new TaskFileError(folder, '', `solutions folder cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
    for (const file of files) {
      const entry = readSolutionFile(file);
      const key = keyOf(entry.format, entry.id);
      const other = solutions.get(key);
      if (other) throw new TaskFileError(file, 'id', `a second solution for ${key} (the first is ${other.file})`);
      solutions.set(key, entry);
    }
  }
  return solutions;
}

function readSolutionFile(file: string): SolutionFile {
  const format = basename(dirname(file)) as SourceFormat;
  if (!SOLUTION_FORMATS.includes(format)) {
    throw new TaskFileError(file, '', `a solution file must sit in a folder named after its format (${SOLUTION_FORMATS.join(', ')}), not in "${basename(dirname(file))}"`);
  }
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new TaskFileError(file, '', `not valid JSON (${(error as Error).message})`);
  }
  const parsed = solutionFileSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new TaskFileError(file, jsonPath(issue.path), issue.message);
  }
  const expectedName = `${parsed.data.id}.json`;
  if (basename(file) !== expectedName) throw new TaskFileError(file, 'id', `the file must be named after the task id: ${expectedName}`);
  return { file, format, ...parsed.data, solution: parsed.data.solution as Action[][] };
}

/** The solution file for a task, when it has none of its own. */
export function solutionFileFor(task: Pick<Task, 'format' | 'id' | 'solution'>, solutions: Solutions): SolutionFile | undefined {
  return task.solution ? undefined : solutions.get(keyOf(task.format, task.id));
}

/** The task with its shipped solution, when it has none of its own (the task's own solution wins). */
export function withSolution(task: Task, solutions: Solutions): Task {
  const found = solutionFileFor(task, solutions);
  return found ? { ...task, solution: found.solution } : task;
}
