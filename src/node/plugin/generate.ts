// The code of the test module generated for one task file: its tests' names and tags, the user's extensions, and
// calls into the worker runtime. No option is written into it: the task, the options and the agent reach the worker
// by other ways (the task file itself, and the run's payload over vitest's provide/inject: src/contract/payload.ts).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TaskFileError } from '../../task/errors.ts';
import { tagsOf } from '../../task/tags.ts';
import type { Task } from '../../task/types.ts';

// runtime.ts here, runtime.js in the built package (dist/).
const RUNTIME = fileURLToPath(new URL(`../../worker/runtime${extname(import.meta.url)}`, import.meta.url));

/**
 * What a generated module depends on besides its task file, for vitest's disk cache of transformed modules: its key
 * already covers the task file's content and the config files', not this generator (another deskbench version) nor
 * options that come from elsewhere (an environment variable in the config).
 */
export function moduleCacheKey(repeats: number, extensions: readonly string[]): string {
  const generator = readFileSync(fileURLToPath(import.meta.url));
  return createHash('sha256').update(generator).update(RUNTIME).update(JSON.stringify({ repeats, extensions })).digest('hex').slice(0, 16);
}

function testName(task: Task): string {
  const firstLine = task.instruction.split('\n')[0].trim();
  const short = firstLine.length > 90 ? `${firstLine.slice(0, 89)}…` : firstLine;
  return `${task.domain}/${task.id}: ${short}`;
}

/**
 * One test per run of the task (the repeats option), with a literal name and literal tags: vitest's `list` parses
 * test modules without running them and reads only those. The test's timeout and meta, and its body, come from the
 * worker runtime by the task file's path.
 *
 * `extensions` are the user's modules that register setup steps, getters and metrics, as files: imported here, by the
 * generated module itself, so that vitest's module runner carries them out (transforming TypeScript as the project
 * does) also when deskbench is a built package that vitest leaves to Node. The agent module goes the same way, through
 * the import() the module hands to the runtime.
 */
export function taskModule(task: Task, repeats: number, extensions: readonly string[]): string {
  const file = JSON.stringify(task.file);
  const tags = JSON.stringify(tagsOf(task));
  const tests = Array.from({ length: repeats }, (_, index) => {
    const repeat = repeats > 1 ? index + 1 : undefined;
    const name = repeat ? `${testName(task)} [run ${repeat}/${repeats}]` : testName(task);
    const args = repeat ? `file, ${repeat}` : 'file';
    return `test(${JSON.stringify(name)}, { tags: ${tags}, ...taskOptions(${args}) }, (context) => runTask(file, context, importModule${repeat ? `, ${repeat}` : ''}));`;
  });
  return [
    `import { test } from 'vitest';`,
    `import { runTask, taskOptions } from ${JSON.stringify(RUNTIME)};`,
    ...extensions.map((extension) => `import ${JSON.stringify(extension)};`),
    `const file = ${file};`,
    `const importModule = (id) => import(/* @vite-ignore */ id);`,
    ...tests,
    '',
  ].join('\n');
}

/**
 * A file that failed validation becomes one failing test carrying the error, so the rest of the run goes on. The
 * error's stack names the place in the task file, so vitest's code frame shows the offending line (the module's own
 * line numbers are those of this generated code, which vitest would otherwise show against the task file).
 */
export function invalidTaskModule(file: string, errors: readonly TaskFileError[]): string {
  const message = errors.map((error) => error.message).join('\n');
  const { line, column } = errors.find((error) => error.location)?.location ?? { line: 1, column: 1 };
  const stack = `TaskFileError: ${message}\n    at ${file}:${line}:${column}`;
  return [
    `import { test } from 'vitest';`,
    `test(${JSON.stringify(`invalid task file: ${basename(file)}`)}, { tags: ["invalid"] }, () => {`,
    `  const error = new Error(${JSON.stringify(message)});`,
    `  error.name = 'TaskFileError';`,
    `  error.stack = ${JSON.stringify(stack)};`,
    `  throw error;`,
    `});`,
    '',
  ].join('\n');
}
