// The programs a task runs inside the desktop, for `deskbench check`: the commands of its setup and postconfig steps
// and of its getters, by the rules of the format that owns each step or getter type (a Spider2-V task runs OSWorld's
// launch), then the programs those commands name (src/task/commands.ts).
import { type Command, commandNames, programOf } from '../task/commands.ts';
import { evalLeaves } from '../task/flags.ts';
import type { Task } from '../task/types.ts';
import { benchmarkAdapters } from './index.ts';

/** Every command a task runs in the desktop: setup and postconfig steps (not those the reference skips), getters. */
function taskCommands(task: Task): Command[] {
  const adapters = benchmarkAdapters();
  const stepRule = (type: string) => adapters.map((adapter) => adapter.stepCommands?.[type]).find(Boolean);
  const getterRule = (type: string) => adapters.map((adapter) => adapter.getterCommands?.[type]).find(Boolean);
  const steps = [...task.setup, ...(task.evaluator?.postconfig ?? [])].filter((step) => !step.ignoredBecause);
  const getters = task.evaluator
    ? evalLeaves(task.evaluator.root).flatMap((leaf) => (leaf.kind === 'metric' ? [leaf.result, leaf.expected] : []))
    : [];
  return [
    ...steps.flatMap((step) => stepRule(step.type)?.(step.parameters, task) ?? []),
    ...getters.flatMap((getter) => (getter ? (getterRule(getter.type)?.(getter, task) ?? []) : [])),
  ];
}

/** The programs (see programOf) a task runs in the desktop, sorted, each once. */
export function taskPrograms(task: Task): string[] {
  const names = taskCommands(task).flatMap(({ command, shell }) => commandNames(command, shell));
  return [...new Set(names.flatMap((name) => programOf(name) ?? []))].sort();
}
