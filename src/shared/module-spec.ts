// What the user names a module by, in the options and on the command line: a file path or a package specifier.
import { isAbsolute, resolve } from 'node:path';

/** True for `./agent.ts`, `/abs/agent.ts`, `agents/x.ts`; false for package specifiers like `deskbench/agents/openai`. */
export function isPathSpec(spec: string): boolean {
  return isAbsolute(spec) || spec.startsWith('.') || /\.[cm]?[jt]s$/.test(spec);
}

/** The absolute file a path spec names, relative to `root`; undefined for a package specifier. */
export function moduleFile(spec: string, root: string): string | undefined {
  return isPathSpec(spec) ? resolve(root, spec) : undefined;
}
