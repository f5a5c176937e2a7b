// Every error deskbench raises carries a code from src/errors.ts (issue 26): these read src/ and fail on a plain
// `throw new Error(`, on a `new Error(` nobody listed below, and on an ERROR_CODES entry that no class carries.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../src/errors.ts';

const ROOT = join(import.meta.dirname, '../src');

// Every .ts file of src/ (its path from src/) and its text. generate.ts writes test modules as text: the `new Error(`
// in its strings is code it generates, not an error it raises.
const sources = (readdirSync(ROOT, { recursive: true }) as string[])
  .map((file) => file.split('\\').join('/'))
  .filter((file) => file.endsWith('.ts') && file !== 'node/plugin/generate.ts')
  .map((file) => ({ file, text: readFileSync(join(ROOT, file), 'utf8') }));

const fileOf = (place: string) => place.slice(0, place.lastIndexOf(':'));

/** The text of a `file:line`. */
function lineAt(place: string): string {
  const line = Number(place.slice(place.lastIndexOf(':') + 1));
  return sources.find(({ file }) => file === fileOf(place))!.text.split('\n')[line - 1];
}

/** `file:line` of each line that matches `pattern`. */
function places(pattern: RegExp): string[] {
  return sources.flatMap(({ file, text }) => text.split('\n').flatMap((line, index) => (pattern.test(line) ? [`${file}:${index + 1}`] : [])));
}

/**
 * The plain `throw new Error(`s left, at most this many per file, and why. shlex.ts raises Python's ValueError for
 * the control server, which bundles it (server/), and shared/ may not import src/errors.ts (they share a layer).
 */
const PLAIN_THROWS: Record<string, number> = {
  'shared/shlex.ts': 3,
};

/** The other plain Errors made on purpose, one a file, each for a reason its code shows. */
const PLAIN_ERRORS = [
  // Ends a request as Node's network errors do: a DeskbenchError's code would show in the download's message.
  'files/fetch-file.ts',
  // OSWorld's FileNotFoundError: the engine scores it 0 by its code ENOENT, which a DeskbenchError's code would replace.
  'adapters/spider2v/getters.ts',
];

describe('the errors of src/', () => {
  it('throws no plain Error: each error is a DeskbenchError with its code', () => {
    const left = places(/\bthrow new Error\(/);
    const over = [...new Set(left.map(fileOf))].filter((file) => left.filter((place) => fileOf(place) === file).length > (PLAIN_THROWS[file] ?? 0));
    expect(left.filter((place) => over.includes(fileOf(place)))).toEqual([]);
  });

  it('makes a plain Error only where it must stay one', () => {
    const made = places(/\bnew Error\(/).filter((place) => !/\bthrow new Error\(/.test(lineAt(place)));
    expect(made.map(fileOf).sort()).toEqual([...PLAIN_ERRORS].sort());
  });

  it('lists each code once, and each is the code of exactly one class of src/', () => {
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
    const carried = sources.flatMap(({ text }) => [...text.matchAll(/readonly code: ErrorCode = '([A-Z_]+)'/g)].map((match) => match[1]));
    for (const code of ERROR_CODES) expect(carried.filter((c) => c === code), code).toHaveLength(1);
    expect(carried.filter((code) => !(ERROR_CODES as readonly string[]).includes(code))).toEqual([]);
  });
});
