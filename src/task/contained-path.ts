// Host paths built from task data stay inside a root folder. Task files come from public datasets and the bytes
// getters write come from the desktop, which the agent controls: a `..`, an absolute path or a symlink in a task
// must not make deskbench read, write or delete anything outside the folder it meant (results, cache, task folder).
import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { DeskbenchError, type ErrorCode } from '../errors.ts';

/** Where a path came from, for the message: the task file (when known) and the field, e.g. `config[0].parameters.src`. */
export interface PathOrigin {
  file?: string;
  field: string;
}

/** A path from a task that leads outside the folder it must stay in. */
export class PathEscapeError extends DeskbenchError {
  override readonly code: ErrorCode = 'DESKBENCH_PATH_ESCAPE';
  readonly file: string | undefined;
  readonly field: string;
  readonly root: string;

  constructor(origin: PathOrigin, value: string, root: string, reason: string) {
    super(`${origin.file ? `${origin.file}: ` : ''}${origin.field} ${JSON.stringify(value)} ${reason}; it must stay inside ${root}`);
    this.file = origin.file;
    this.field = origin.field;
    this.root = root;
  }
}

/**
 * `path` (relative to `root`, or absolute) as an absolute path strictly inside `root`. Throws PathEscapeError when it
 * leaves the root: through `..`, as an absolute path elsewhere, or through a symlink (the part of the path that exists
 * is resolved with realpath, so a link inside the root that points outside counts as outside).
 */
export function containedPath(root: string, path: string, origin: PathOrigin): string {
  const base = resolve(root);
  if (path.includes('\0')) throw new PathEscapeError(origin, path, base, 'contains a NUL character');
  const target = resolve(base, path);
  if (!isInside(base, target)) {
    throw new PathEscapeError(origin, path, base, isAbsolute(path) ? 'is an absolute path outside its folder' : 'leads outside its folder');
  }
  const realBase = realExisting(base);
  const realTarget = realExisting(target);
  if (!isInside(realBase, realTarget)) {
    throw new PathEscapeError(origin, path, base, `goes through a symbolic link to ${realTarget}`);
  }
  return target;
}

/** `path` resolved inside the first of `roots` that holds it (see containedPath); undefined when none does. */
export function firstContaining(roots: readonly string[], path: string): string | undefined {
  for (const root of roots) {
    try {
      return containedPath(root, path, { field: '' });
    } catch (error) {
      if (!(error instanceof PathEscapeError)) throw error;
    }
  }
  return undefined;
}

/** `child` strictly below `parent` (both absolute and normalized). */
function isInside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
}

/**
 * realpath of the longest existing ancestor, with the rest of the path appended (that rest cannot hold links yet).
 * A dangling link is followed by hand: writing through it would create its target.
 */
function realExisting(path: string, hops = 0): string {
  let existing = path;
  while (!pathExists(existing) && dirname(existing) !== existing) existing = dirname(existing);
  const rest = relative(existing, path);
  try {
    return resolve(realpathSync(existing), rest);
  } catch (error) {
    if (hops > 40 || !lstatSync(existing).isSymbolicLink()) throw error;
    return realExisting(resolve(dirname(existing), readlinkSync(existing), rest), hops + 1);
  }
}

/** Whether something is at `path`, a dangling symlink included. */
function pathExists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
