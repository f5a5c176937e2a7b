// The programs the real corpora's tasks run inside the desktop (src/task/commands.ts reads them from each loaded
// task), with the task files using each: what the desktop image's table (src/desktop/provided-commands.ts) must cover.
import { loadTasks } from '../../src/adapters/load.ts';
import { taskPrograms } from '../../src/adapters/programs.ts';

/** Program → the files of the tasks that run it, over every Linux task under the given folders. */
export function corpusPrograms(folders: readonly string[]): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const task of loadTasks(folders).tasks) {
    if (task.platform === 'windows') continue;
    for (const program of taskPrograms(task)) found.set(program, [...(found.get(program) ?? []), task.file]);
  }
  return found;
}
