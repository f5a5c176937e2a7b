// The code of the test module generated for one task file: one test, with a literal name and literal tags so that
// `vitest list` and `--tags-filter` see them without running anything.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, extname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TaskFileError } from '../../task/errors.ts';
import type { Task } from '../../task/types.ts';
import { SECRET_OPTIONS_KEY, type WorkerOptions, splitSecretOptions } from './options.ts';
import { tagsOf } from '../../task/tags.ts';

// runtime.ts here, runtime.js in the built package (dist/).
const RUNTIME = fileURLToPath(new URL(`../../worker/runtime${extname(import.meta.url)}`, import.meta.url));

/**
 * Changes when the generated code may change without a change of options or task file: another deskbench version or
 * build. Part of the cache key, since vitest caches transformed modules on disk and does not see deskbench's files.
 */
export const GENERATOR_FINGERPRINT = createHash('sha256').update(RUNTIME).update(readFileSync(fileURLToPath(import.meta.url))).digest('hex').slice(0, 16);

/**
 * vitest's test timeout is the task's plus this: deskbench ends a task at its own timeout (TIMED_OUT, with its summary
 * and its desktop removed), and vitest's would cut that short.
 */
const TEST_TIMEOUT_GRACE_MS = 30_000;

function testName(task: Task): string {
  const firstLine = task.instruction.split('\n')[0].trim();
  const short = firstLine.length > 90 ? `${firstLine.slice(0, 89)}…` : firstLine;
  return `${task.domain}/${task.id}: ${short}`;
}

/** Where the user's modules a task test may import are, as resolved in the main process. */
export interface UserModulePaths {
  /** Config files that may call deskbench() with an agent object: the project's, then the root one. */
  configFiles: string[];
  /** The agent module, when the agent option names one. */
  agent?: string;
  extensions: string[];
}

export function taskModule(task: Task, options: WorkerOptions, modules: UserModulePaths = { configFiles: [], extensions: [] }): string {
  const repeats = options.repeats ?? 1;
  // vitest caches this code on disk: API keys and tokens stay out of it, and reach the worker over vitest's IPC.
  const { plain } = splitSecretOptions(options);
  const file = taskFileIdentity(task.file);
  // One test per run (the repeats option), each with its own name, meta and results folder.
  const tests = Array.from({ length: repeats }, (_, index) => {
    const repeat = repeats > 1 ? index + 1 : undefined;
    const name = repeat ? `${testName(task)} [run ${repeat}/${repeats}]` : testName(task);
    // Identifier keys, not JSON's quoted ones: vitest's static collector (`vitest list`) only reads `tags:`.
    const meta = JSON.stringify({ deskbench: { id: task.id, domain: task.domain, format: task.format, tags: tagsOf(task), ...(repeat ? { repeat } : {}), ...file } });
    const testOptions = `{ tags: ${JSON.stringify(tagsOf(task))}, timeout: ${options.timeout * 1000 + TEST_TIMEOUT_GRACE_MS}, meta: ${meta} }`;
    return `test(${JSON.stringify(name)}, ${testOptions}, (context) => runTask(task, options, context, modules${repeat ? `, ${repeat}` : ''}));`;
  });
  return [
    `import { inject, test } from 'vitest';`,
    `import { runTask } from ${JSON.stringify(RUNTIME)};`,
    // The user's setup steps, getters and metrics register themselves when imported.
    ...modules.extensions.map((extension) => `import ${JSON.stringify(extension)};`),
    `const task = ${JSON.stringify(task)};`,
    `const options = { ...${JSON.stringify(plain)}, ...inject(${JSON.stringify(SECRET_OPTIONS_KEY)}) };`,
    `const modules = ${userModules(options, modules)};`,
    ...tests,
    '',
  ].join('\n');
}

/** The task file (relative to the folder vitest runs in) and its sha256, for the run record and deskbench compare. */
function taskFileIdentity(file: string): { taskFile?: string; taskSha256?: string } {
  try {
    return { taskFile: relative(process.cwd(), file).split('\\').join('/'), taskSha256: createHash('sha256').update(readFileSync(file)).digest('hex') };
  } catch {
    return {}; // read a moment ago by the loader; if it is gone now, the test says so when it runs
  }
}

/**
 * The user's modules a task test may need. They are imported by the generated module's own import(), which vitest's
 * module runner carries out (transforming TypeScript as the project does), also when deskbench itself is a built
 * package that vitest leaves to Node. An agent object is found by evaluating a config file again (configured.ts).
 */
function userModules(options: WorkerOptions, { configFiles, agent }: UserModulePaths): string {
  const entries = [`importModule: (id) => import(/* @vite-ignore */ id)`];
  if (typeof options.agent === 'object') entries.push(`configFiles: ${JSON.stringify(configFiles)}`);
  if (agent) entries.push(`agentPath: ${JSON.stringify(agent)}`);
  return `{ ${entries.join(', ')} }`;
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
