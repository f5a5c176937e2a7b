// Shipped solutions: known answers to corpus tasks, kept beside the corpus rather than in its task files.
// Files sit in `<folder>/<format>/` (format: osworld | spider2v | guios), one of three kinds:
// - `<task id>.json` `{ "id", "note", "solution": [[action, …], …] }`: the steps the scripted agent replays;
// - `<task id>.<variant>.json`, same fields: a second solution of the task, e.g. `gui` for the way a person goes
//   through the apps' own windows when the first one types into a terminal; replayed with the `solutionVariant` option;
// - `<task id>.json` `{ "id", "gold_only": "<why>" }`: no honest solution exists, because the checker wants text that
//   only a gold file holds (an agent never sees it); verify and check list such tasks and never count them verified.
// The plugin's `solutions` option lists such folders; a task's own `solution` field wins over a main solution file.
import { readFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { z } from 'zod';
import type { Action } from '../agent/types.ts';
import { TaskFileError, jsonPath } from '../task/errors.ts';
import { adapters } from '../adapters/index.ts';
import { walkJsonFiles } from '../adapters/load.ts';
import { solution } from '../task/schema-parts.ts';
import type { SourceFormat, Task } from '../task/types.ts';


/** A variant's name, the part between the task id and `.json`: lower-case letters, digits and dashes. */
const VARIANT_NAME = /^[a-z][a-z0-9-]*$/;

export interface SolutionFile {
  kind: 'solution';
  file: string;
  format: SourceFormat;
  id: string;
  /** The second solution's name (`gui` for `<id>.gui.json`); absent for the main one. */
  variant?: string;
  note: string;
  solution: Action[][];
}

/** A task marked as having no honest solution: its checker needs text that appears only in a gold file. */
export interface GoldOnlyMark {
  kind: 'gold_only';
  file: string;
  format: SourceFormat;
  id: string;
  /** Which gold text the checker wants and why an agent cannot know it. */
  reason: string;
}

const nonEmpty = (what: string) => z.string({ error: `expected ${what} (a string)` }).min(1, { error: `expected ${what} (a non-empty string)` });
const taskId = nonEmpty('the task id');

const solutionFileSchema = z.strictObject({
  id: taskId,
  note: z.string({ error: 'expected a note: one or two sentences saying what the solution does' }).min(1, { error: 'expected a non-empty note' }),
  solution: solution.min(1, { error: 'expected at least one step' }),
});

const goldOnlySchema = z.strictObject({
  id: taskId,
  gold_only: nonEmpty('gold_only: why the checker needs text found only in a gold file'),
});

/** Solution files and gold-only marks by `<format>/<id>` (a variant: `<format>/<id>.<variant>`). */
export type Solutions = Map<string, SolutionFile | GoldOnlyMark>;

const keyOf = (format: string, id: string, variant?: string) => `${format}/${id}${variant ? `.${variant}` : ''}`;

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
      const key = keyOf(entry.format, entry.id, entry.kind === 'solution' ? entry.variant : undefined);
      const other = solutions.get(key);
      if (other) throw new TaskFileError(file, 'id', `a second ${entry.kind === 'gold_only' ? 'file' : 'solution'} for ${key} (the first is ${other.file})`);
      solutions.set(key, entry);
    }
  }
  // A task an agent can solve honestly is not gold-only: a variant beside a mark is a contradiction.
  for (const entry of solutions.values()) {
    if (entry.kind !== 'solution' || !entry.variant) continue;
    const main = solutions.get(keyOf(entry.format, entry.id));
    if (main?.kind === 'gold_only') throw new TaskFileError(entry.file, 'id', `${main.file} marks ${entry.id} gold_only, yet this file solves it`);
  }
  return solutions;
}

export function readSolutionFile(file: string): SolutionFile | GoldOnlyMark {
  const format = basename(dirname(file)) as SourceFormat;
  if (!adapters.has(format)) {
    throw new TaskFileError(file, '', `a solution file must sit in a folder named after its format (${adapters.names().join(', ')}), not in "${basename(dirname(file))}"`);
  }
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new TaskFileError(file, '', `not valid JSON (${(error as Error).message})`);
  }
  const goldOnly = data !== null && typeof data === 'object' && 'gold_only' in data;
  const parsed = (goldOnly ? goldOnlySchema : solutionFileSchema).safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new TaskFileError(file, jsonPath(issue.path), issue.message);
  }
  const { id } = parsed.data;
  const variant = variantOf(file, id, goldOnly);
  if ('gold_only' in parsed.data) return { kind: 'gold_only', file, format, id, reason: parsed.data.gold_only };
  const { note, solution: steps } = parsed.data;
  return { kind: 'solution', file, format, id, ...(variant ? { variant } : {}), note, solution: steps as Action[][] };
}

/** The variant a file name gives (`<id>.gui.json` → gui), undefined for `<id>.json`; throws for any other name. */
function variantOf(file: string, id: string, goldOnly: boolean): string | undefined {
  const name = basename(file);
  if (name === `${id}.json`) return undefined;
  const variant = name.startsWith(`${id}.`) ? name.slice(id.length + 1, -'.json'.length) : '';
  if (goldOnly || !VARIANT_NAME.test(variant)) {
    const expected = goldOnly ? `${id}.json` : `${id}.json, or ${id}.<variant>.json for a second solution (such as ${id}.gui.json)`;
    throw new TaskFileError(file, 'id', `the file must be named after the task id: ${expected}`);
  }
  return variant;
}

/**
 * The solution file a task replays, when it has none of its own: the main one, or with `variant` that second solution
 * (which wins over the task's own; a task without that variant has none).
 */
export function solutionFileFor(task: Pick<Task, 'format' | 'id' | 'solution'>, solutions: Solutions, variant?: string): SolutionFile | undefined {
  if (task.solution && !variant) return undefined;
  const entry = solutions.get(keyOf(task.format, task.id, variant));
  return entry?.kind === 'solution' ? entry : undefined;
}

/** The mark of a task with no honest solution, if it has one. */
export function goldOnlyMarkFor(task: Pick<Task, 'format' | 'id'>, solutions: Solutions): GoldOnlyMark | undefined {
  const entry = solutions.get(keyOf(task.format, task.id));
  return entry?.kind === 'gold_only' ? entry : undefined;
}

/** The names of a task's second solutions (variants), sorted. */
export function variantsOf(task: Pick<Task, 'format' | 'id'>, solutions: Solutions): string[] {
  const variants = [...solutions.values()].flatMap((entry) => (entry.kind === 'solution' && entry.variant && entry.format === task.format && entry.id === task.id ? [entry.variant] : []));
  return variants.sort();
}

/**
 * The task with the solution it replays: its shipped one, when it has none of its own (its own wins), or with
 * `variant` that second solution. A task without the variant asked for is left without a solution.
 */
export function withSolution(task: Task, solutions: Solutions, variant?: string): Task {
  const found = solutionFileFor(task, solutions, variant);
  if (found) return { ...task, solution: found.solution };
  return variant ? { ...task, solution: undefined } : task;
}
