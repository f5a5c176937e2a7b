// The code of the test module generated for one task file: one test, with a literal name and literal tags so that
// `vitest list` and `--tags-filter` see them without running anything.
import { basename, extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TaskFileError } from '../task/errors.ts';
import type { Task } from '../task/types.ts';
import type { WorkerOptions } from './options.ts';
import { tagsOf } from './tags.ts';

// runtime.ts here, runtime.js in the built package (dist/).
const RUNTIME = fileURLToPath(new URL(`./runtime${extname(import.meta.url)}`, import.meta.url));

export function testName(task: Task): string {
  const firstLine = task.instruction.split('\n')[0].trim();
  const short = firstLine.length > 90 ? `${firstLine.slice(0, 89)}…` : firstLine;
  return `${task.domain}/${task.id}: ${short}`;
}

/** Where the user's modules a task test may import are, as resolved in the main process. */
export interface UserModulePaths {
  /** The vitest config file (evaluated again in the worker when the agent is an object of the config). */
  configFile?: string;
  /** The agent module, when the agent option names one. */
  agent?: string;
  extensions: string[];
}

export function taskModule(task: Task, options: WorkerOptions, modules: UserModulePaths = { extensions: [] }): string {
  // Identifier keys, not JSON's quoted ones: vitest's static collector (`vitest list`) only reads `tags:`.
  const meta = JSON.stringify({ deskbench: { id: task.id, domain: task.domain, format: task.format, tags: tagsOf(task) } });
  const testOptions = `{ tags: ${JSON.stringify(tagsOf(task))}, timeout: ${options.timeout * 1000}, meta: ${meta} }`;
  return [
    `import { test } from 'vitest';`,
    `import { runTask } from ${JSON.stringify(RUNTIME)};`,
    // The user's setup steps, getters and metrics register themselves when imported.
    ...modules.extensions.map((extension) => `import ${JSON.stringify(extension)};`),
    `const task = ${JSON.stringify(task)};`,
    `const options = ${JSON.stringify(options)};`,
    `const modules = ${userModules(options, modules)};`,
    `test(${JSON.stringify(testName(task))}, ${testOptions}, (context) => runTask(task, options, context, modules));`,
    '',
  ].join('\n');
}

/**
 * The user's modules a task test may need, imported here rather than by deskbench's own code: the generated module
 * always goes through vitest's transforms, also when deskbench itself is a built package that vitest leaves to Node.
 * An agent object of the config is found by evaluating the config file again (src/agent/configured.ts).
 */
function userModules(options: WorkerOptions, { configFile, agent }: UserModulePaths): string {
  const entries: string[] = [];
  if (typeof options.agent === 'object' && configFile) {
    entries.push(`config: { file: ${JSON.stringify(configFile)}, load: () => import(${JSON.stringify(configFile)}) }`);
  }
  if (agent) entries.push(`agent: () => import(${JSON.stringify(agent)})`);
  return `{ ${entries.join(', ')} }`;
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
