// The remote URLs a task has the host fetch (through the task's fetchUrl, src/setup/downloads.ts): the `files` of
// `download` steps (setup and postconfig), a Spider2-V script given as a URL (`script_and_execute`), and the getters
// that download (`cloud_file`, a `vm_script_output` script given as a URL). Local paths and `file:` URLs are not
// downloads; neither are pages Chrome opens.
import { evalLeaves } from '../task/flags.ts';
import type { GetterSpec, MetricNode, Task } from '../task/types.ts';

const isRemote = (value: unknown): value is string => typeof value === 'string' && /^https?:\/\//i.test(value);

/** The task's download URLs, each once, in the order the task meets them. */
export function taskUrls(task: Task): string[] {
  const urls: unknown[] = [];
  const steps = [...task.setup, ...(task.evaluator?.postconfig ?? [])].filter((step) => !step.ignoredBecause);
  for (const { type, parameters } of steps) {
    if (type === 'download' && Array.isArray(parameters.files)) {
      for (const file of parameters.files) urls.push((file as { url?: unknown } | null)?.url);
    }
    if (type === 'script_and_execute') urls.push(parameters.src);
  }
  const calls = task.evaluator ? evalLeaves(task.evaluator.root).filter((leaf): leaf is MetricNode => leaf.kind === 'metric') : [];
  for (const getter of calls.flatMap((call) => [call.result, call.expected])) urls.push(...getterUrls(getter));
  return [...new Set(urls.filter(isRemote))];
}

function getterUrls(getter: GetterSpec | undefined): unknown[] {
  if (getter?.type === 'cloud_file') return Array.isArray(getter.path) ? getter.path : [getter.path];
  if (getter?.type === 'vm_script_output') return [getter.src];
  return [];
}
