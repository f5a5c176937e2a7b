// Errors about task files. Each names the file, the JSON path inside it (and its line) and what was expected, so one
// message is enough to fix the file. A broken file never stops the others from loading: loaders collect these, never throw them.
import type { TextLocation } from './json-location.ts';
import { DeskbenchError, type ErrorCode } from '../errors.ts';

export class TaskFileError extends DeskbenchError {
  /** A stable name of the kind: reports and `deskbench verify --json` list it. */
  override readonly code: ErrorCode = 'DESKBENCH_TASK_FILE';
  readonly file: string;
  /** JSON path inside the file, e.g. `config[2].parameters.command`; empty for the whole file. */
  readonly path: string;
  readonly detail: string;
  /** Where in the file (line and column from 1), when known. */
  readonly location: TextLocation | undefined;

  constructor(file: string, path: string, detail: string, location?: TextLocation) {
    super(`${file}${location ? `:${location.line}:${location.column}` : ''}${path ? ` at ${path}` : ''}: ${detail}`);
    this.file = file;
    this.path = path;
    this.detail = detail;
    this.location = location;
  }

  toJSON(): { file: string; path: string; message: string; line?: number; column?: number } {
    return { file: this.file, path: this.path, message: this.detail, ...this.location };
  }
}

/** A `tasks` entry that names nothing: no such file or folder, or a glob that matches no file. */
export class MissingTaskPathError extends TaskFileError {
  override readonly code: ErrorCode = 'DESKBENCH_TASK_PATH_MISSING';
}

/** Formats a zod issue path as a JSON path: ['config', 2, 'type'] → `config[2].type`. */
export function jsonPath(segments: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of segments) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out ? `.${String(segment)}` : String(segment);
  }
  return out;
}
