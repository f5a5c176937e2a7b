// What `deskbench verify` runs, decided before any desktop starts: the tasks under the paths, which of them have a
// solution (and which second solutions), which are marked gold-only, and the errors that make verify fail — a path
// that names nothing, an invalid task file, a broken solution file, a solution whose task is absent.
import { basename, dirname, relative } from 'node:path';
import { TaskFileError } from '../../task/errors.ts';
import { loadTasks, walkJsonFiles } from '../../adapters/load.ts';
import type { Task } from '../../task/types.ts';
import { type GoldOnlyMark, type Solutions, goldOnlyMarkFor, loadSolutions, solutionFileFor, variantsOf } from '../../solutions/load.ts';
import type { ErrorCode } from '../../errors.ts';

/** A solution file (or gold-only mark) whose task is in none of the corpora its folder's other files point to. */
class SolutionTaskAbsentError extends TaskFileError {
  override readonly code: ErrorCode = 'DESKBENCH_SOLUTION_TASK_ABSENT';
}

export interface VerifySelection {
  /** Valid task files under the paths. */
  tasks: Task[];
  /** Tasks with a solution (their own, a shipped one, or a second one); never Windows tasks. */
  solved: Task[];
  /** Tasks under the paths marked gold-only, with the reason. */
  goldOnly: { task: Task; mark: GoldOnlyMark }[];
  solutions: Solutions;
  errors: TaskFileError[];
}

export function selectForVerify(paths: readonly string[], solutionFolders: readonly string[], cwd: string): VerifySelection {
  const { tasks, errors } = loadTasks(paths, { cwd });
  let solutions: Solutions;
  try {
    solutions = loadSolutions(solutionFolders);
  } catch (error) {
    if (!(error instanceof TaskFileError)) throw error;
    return { tasks, solved: [], goldOnly: [], solutions: new Map(), errors: [...errors, error] };
  }
  // Windows tasks are never solved here: the desktop is Linux (OSWorld's examples_windows reuses some Ubuntu task ids).
  const linux = tasks.filter((task) => task.platform !== 'windows');
  const solved = linux.filter((task) => task.solution || solutionFileFor(task, solutions) || variantsOf(task, solutions).length);
  const goldOnly = linux.flatMap((task) => {
    const mark = goldOnlyMarkFor(task, solutions);
    return mark && !task.solution ? [{ task, mark }] : [];
  });
  return { tasks, solved, goldOnly, solutions, errors: [...errors, ...absentTaskErrors(linux, solutions, cwd)] };
}

/**
 * The corpus a task belongs to: the folder above its domain folder (`<corpus>/<domain>/<id>.json`, or
 * `<corpus>/<domain>/<id>/<id>.json` for Spider2-V and GUI-OS).
 */
function corpusOf(task: Task): string {
  const domainDir = basename(task.dir) === basename(task.file, '.json') ? dirname(task.dir) : task.dir;
  return dirname(domainDir);
}

/**
 * Solution files whose task has gone. A folder of solutions (`<folder>/<format>/`) points at the corpora of the tasks
 * under the paths that it solves; each of its files must name a task file somewhere in those corpora, else the task was
 * renamed or removed, or the id is mistyped, and the solution would never run. A folder that solves none of the tasks
 * under the paths is not about them and is not checked (a subset of a corpus checks against the whole corpus).
 */
function absentTaskErrors(tasks: readonly Task[], solutions: Solutions, cwd: string): SolutionTaskAbsentError[] {
  const byFolder = Map.groupBy(solutions.values(), (entry) => dirname(entry.file));
  const corpusIds = new Map<string, Set<string>>();
  const idsIn = (corpus: string) => {
    let ids = corpusIds.get(corpus);
    if (!ids) {
      ids = new Set(walkJsonFiles(corpus).map((file) => basename(file, '.json')));
      corpusIds.set(corpus, ids);
    }
    return ids;
  };
  const errors: SolutionTaskAbsentError[] = [];
  for (const [folder, entries] of byFolder) {
    const keys = new Set(entries.map((entry) => `${entry.format}/${entry.id}`));
    const corpora = [...new Set(tasks.filter((task) => keys.has(`${task.format}/${task.id}`)).map(corpusOf))];
    if (!corpora.length) continue;
    for (const entry of entries) {
      if (corpora.some((corpus) => idsIn(corpus).has(entry.id))) continue;
      const where = corpora.map((corpus) => relative(cwd, corpus) || '.').join(', ');
      errors.push(new SolutionTaskAbsentError(entry.file, 'id', `no task ${entry.id} in ${where}, the corpus the other files of ${relative(cwd, folder) || folder} solve: it was renamed or removed, or the id is mistyped`));
    }
  }
  return errors;
}
