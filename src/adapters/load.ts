// Finding and reading task files. Inputs are folders, globs, task files and index files (`{domain: [ids]}`); the
// result is every task that parsed plus one TaskFileError per broken file — one bad file never hides the others.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { globSync } from 'tinyglobby';
import type { z } from 'zod';
import type { Action } from '../task/actions.ts';
import { MissingTaskPathError, TaskFileError, jsonPath } from '../task/errors.ts';
import { locateJsonPath, locationAt, syntaxErrorOffset } from '../task/json-location.ts';
import { deriveFlags } from '../task/flags.ts';
import { taskId } from '../task/schema-parts.ts';
import type { Task } from '../task/types.ts';
import type { BenchmarkAdapter } from './adapter.ts';
import { adapterFor, registerAdapters } from './index.ts';

export interface LoadResult {
  tasks: Task[];
  errors: TaskFileError[];
  /** Index files met (given, or found while walking folders). */
  indexFiles: string[];
}

/** The parse of one file: a task, an error, an index file, or nothing (another JSON file, e.g. a task's input). */
export type FileResult =
  | { kind: 'task'; task: Task }
  | { kind: 'error'; error: TaskFileError }
  | { kind: 'index'; file: string; ids: Record<string, string[]> }
  | { kind: 'other' };

const TASK_KEYS = ['instruction', 'evaluator', 'evaluation'];

/**
 * Loads every task the inputs select. A folder is walked for JSON files (index files inside it are noted, not
 * followed); an index file selects the tasks it lists from the `examples/` folder beside it; a glob selects files.
 */
export function loadTasks(inputs: readonly string[], options: { cwd?: string } = {}): LoadResult {
  const cwd = options.cwd ?? process.cwd();
  const result: LoadResult = { tasks: [], errors: [], indexFiles: [] };
  const seen = new Set<string>();
  const take = (file: string, explicit: boolean): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const parsed = readTaskFile(file, { explicit });
    if (parsed.kind === 'task') result.tasks.push(parsed.task);
    else if (parsed.kind === 'error') result.errors.push(parsed.error);
    else if (parsed.kind === 'index') {
      result.indexFiles.push(file);
      if (explicit) {
        for (const selected of resolveIndex(file, parsed.ids, result.errors)) take(selected, true);
      }
    }
  };
  for (const input of inputs) {
    const path = isAbsolute(input) ? input : resolve(cwd, input);
    if (existsSync(path) && statSync(path).isDirectory()) {
      for (const file of walkJsonFiles(path)) take(file, false);
    } else if (existsSync(path)) {
      take(path, true);
    } else if (/[*?[{]/.test(input)) {
      const matched = globSync(input, { cwd, absolute: true }).sort();
      if (matched.length === 0) result.errors.push(new MissingTaskPathError(path, '', `the glob matches no file (relative to ${cwd})`));
      for (const file of matched) take(file, false);
    } else {
      result.errors.push(new MissingTaskPathError(path, '', 'no such file or folder (expected a task file, an index file, a folder or a glob)'));
    }
  }
  return result;
}

/** Every `.json` file below a folder, sorted, skipping node_modules and dot-folders. */
export function walkJsonFiles(root: string): string[] {
  const files: string[] = [];
  const visit = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) visit(full);
      else if (entry.isFile() && entry.name.endsWith('.json')) files.push(full);
    }
  };
  visit(root);
  return files;
}

/**
 * Reads one JSON file and decides what it is. `explicit` means the user named this file (or an index listed it):
 * then anything that is not a valid task is an error. Found while walking, a file that does not parse is an error
 * too, unless it is an input of a task (isTaskInput); a file that parses but is neither a task nor an index file
 * (settings templates, a task's config.json) is left alone.
 */
export function readTaskFile(file: string, options: { explicit?: boolean } = {}): FileResult {
  const explicit = options.explicit ?? false;
  let text: string;
  let data: unknown;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return { kind: 'error', error: new TaskFileError(file, '', `cannot be read (${(error as Error).message})`) };
  }
  try {
    data = JSON.parse(text);
  } catch (error) {
    if (!explicit && isTaskInput(file)) return { kind: 'other' };
    const detail = error instanceof SyntaxError ? error.message : String(error);
    const offset = syntaxErrorOffset(text);
    return { kind: 'error', error: new TaskFileError(file, '', `not valid JSON (${detail})`, offset === undefined ? undefined : locationAt(text, offset)) };
  }
  const ids = asIndex(data);
  if (ids && !explicitTaskObject(data)) return { kind: 'index', file, ids };
  if (!isObject(data) || !TASK_KEYS.some((key) => key in data)) {
    if (!explicit) return { kind: 'other' };
    return { kind: 'error', error: new TaskFileError(file, '', 'not a task: expected an object with an "instruction" (or an index file {domain: [ids]})') };
  }
  return parseTask(file, text, data);
}

function parseTask(file: string, text: string, data: Record<string, unknown>): FileResult {
  registerAdapters();
  const adapter = adapterFor(file, data);
  const parsed = adapter.schemaFor(data).safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const more = parsed.error.issues.length > 1 ? ` (+${parsed.error.issues.length - 1} more problems)` : '';
    return { kind: 'error', error: new TaskFileError(file, jsonPath(issue.path), `${describeIssue(issue, data)}${more}`, locateJsonPath(text, issue.path)) };
  }
  return { kind: 'task', task: toTask(file, adapter, parsed.data as Record<string, unknown>) };
}

function describeIssue(issue: z.core.$ZodIssue, data: unknown): string {
  let value: unknown = data;
  for (const key of issue.path) value = value && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  if (issue.code === 'invalid_type' && value === undefined) return `missing required field: ${issue.message}`;
  return issue.message;
}

const NAMED_FIELDS = new Set(['id', 'instruction', 'config', 'evaluator', 'evaluation', 'related_apps', 'tags', 'action_number', 'counterpart', 'solution']);

function toTask(file: string, adapter: BenchmarkAdapter, data: Record<string, unknown>): Task {
  const { setup, evaluator } = adapter.read(data);
  const tags = (data.tags as string[] | undefined) ?? [];
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) if (!NAMED_FIELDS.has(key)) extra[key] = value;
  return {
    id: data.id as string,
    format: adapter.name,
    file,
    dir: dirname(file),
    domain: domainOf(file),
    platform: file.split(sep).includes('examples_windows') ? 'windows' : 'ubuntu',
    instruction: data.instruction as string,
    setup,
    evaluator,
    tags,
    relatedApps: (data.related_apps as string[] | undefined) ?? [],
    stepHint: data.action_number as number | undefined,
    counterpart: data.counterpart as string | undefined,
    flags: deriveFlags({ setup, evaluator, tags, proxy: data.proxy === true, instruction: data.instruction as string }),
    solution: data.solution as Action[][] | undefined,
    extra,
  };
}

/** `…/<domain>/<id>.json` (OSWorld) or `…/<tool>/<id>/<id>.json` (Spider2-V, GUI-OS). */
function domainOf(file: string): string {
  const stem = basename(file, '.json');
  const parent = dirname(file);
  return basename(parent) === stem ? basename(dirname(parent)) : basename(parent);
}

/**
 * A JSON file inside a task's own folder (`<id>/` holding `<id>.json`, the Spider2-V and GUI-OS layout) other than the
 * task file itself is one of the task's inputs (config.json, connection.json, a notebook's settings): it may be
 * broken on purpose, and it is not ours to judge. Any other JSON file under a scanned folder that does not parse
 * (a task file, an index file, a template) is reported.
 */
function isTaskInput(file: string): boolean {
  const dir = dirname(file);
  const taskFile = join(dir, `${basename(dir)}.json`);
  return taskFile !== file && existsSync(taskFile);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

function explicitTaskObject(data: unknown): boolean {
  return isObject(data) && TASK_KEYS.some((key) => key in data);
}

/** An index file maps domains to lists of task ids. */
function asIndex(data: unknown): Record<string, string[]> | undefined {
  if (!isObject(data)) return undefined;
  const values = Object.values(data);
  if (values.length === 0 || !values.every((v) => Array.isArray(v) && v.every((id) => typeof id === 'string'))) return undefined;
  return data as Record<string, string[]>;
}

/** Index entries resolve to `examples/<domain>/<id>.json` or `examples/<domain>/<id>/<id>.json` beside the index. */
function resolveIndex(indexFile: string, ids: Record<string, string[]>, errors: TaskFileError[]): string[] {
  const base = dirname(indexFile);
  const roots = [join(base, 'examples'), base];
  const files: string[] = [];
  for (const [domain, list] of Object.entries(ids)) {
    list.forEach((id, i) => {
      // Index entries are path segments: `../` in an index must not load JSON files from elsewhere on the host.
      if (!taskId.safeParse(domain).success || !taskId.safeParse(id).success) {
        errors.push(new TaskFileError(indexFile, `${domain}[${i}]`, `expected a domain and a task id that are safe folder names (got ${JSON.stringify(`${domain}/${id}`)})`));
        return;
      }
      const candidates = roots.flatMap((root) => [join(root, domain, `${id}.json`), join(root, domain, id, `${id}.json`)]);
      const found = candidates.find((candidate) => existsSync(candidate));
      if (found) files.push(found);
      else errors.push(new TaskFileError(indexFile, `${domain}[${i}]`, `task "${id}" not found (looked for examples/${domain}/${id}.json and examples/${domain}/${id}/${id}.json)`));
    });
  }
  return files;
}
