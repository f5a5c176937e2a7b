// The code of the test module generated for one task file: one test, with a literal name and literal tags so that
// `vitest list` and `--tags-filter` see them without running anything.
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TaskFileError } from '../task/errors.ts';
import type { Task } from '../task/types.ts';
import type { WorkerOptions } from './options.ts';
import { tagsOf } from './tags.ts';

const RUNTIME = fileURLToPath(new URL('./runtime.ts', import.meta.url));

export function testName(task: Task): string {
  const firstLine = task.instruction.split('\n')[0].trim();
  const short = firstLine.length > 90 ? `${firstLine.slice(0, 89)}…` : firstLine;
  return `${task.domain}/${task.id}: ${short}`;
}

export function taskModule(task: Task, options: WorkerOptions, configFile?: string): string {
  // Identifier keys, not JSON's quoted ones: vitest's static collector (`vitest list`) only reads `tags:`.
  const meta = JSON.stringify({ deskbench: { id: task.id, domain: task.domain, format: task.format, tags: tagsOf(task) } });
  const testOptions = `{ tags: ${JSON.stringify(tagsOf(task))}, timeout: ${options.timeout * 1000}, meta: ${meta} }`;
  // An agent object of the config is found by evaluating the config file in the worker (src/agent/configured.ts).
  const configured = typeof options.agent === 'object' && configFile;
  return [
    `import { test } from 'vitest';`,
    `import { runTask } from ${JSON.stringify(RUNTIME)};`,
    // The user's setup steps, getters and metrics register themselves when imported.
    ...options.extensions.map((extension) => `import ${JSON.stringify(extension)};`),
    `const task = ${JSON.stringify(task)};`,
    `const options = ${JSON.stringify(options)};`,
    configured ? `const config = { file: ${JSON.stringify(configFile)}, load: () => import(${JSON.stringify(configFile)}) };` : `const config = undefined;`,
    `test(${JSON.stringify(testName(task))}, ${testOptions}, (context) => runTask(task, options, context, config));`,
    '',
  ].join('\n');
}

/** A file that failed validation becomes one failing test carrying the error, so the rest of the run goes on. */
export function invalidTaskModule(file: string, errors: readonly TaskFileError[]): string {
  const message = errors.map((error) => error.message).join('\n');
  return [
    `import { test } from 'vitest';`,
    `test(${JSON.stringify(`invalid task file: ${basename(file)}`)}, { tags: ["invalid"] }, () => {`,
    `  const error = new Error(${JSON.stringify(message)});`,
    `  error.name = 'TaskFileError';`,
    `  throw error;`,
    `});`,
    '',
  ].join('\n');
}
