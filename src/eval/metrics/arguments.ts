// The arguments every metric family reads: OSWorld passes getter results (local paths or null), the task's rules
// object and option dicts; Python truthiness decides flags.
import { MetricOptionsError } from '../errors.ts';
import { MalformedInputError } from '../../errors.ts';

/** Python truthiness of an option value (`options.get(name, default)`). */
export function flag(options: Record<string, unknown> | undefined, name: string, fallback: boolean): boolean {
  const value = options?.[name];
  if (value === undefined) return fallback;
  if (Array.isArray(value)) return value.length > 0;
  if (value && typeof value === 'object') return Object.keys(value).length > 0;
  return Boolean(value);
}

export function numberOption(options: Record<string, unknown> | undefined, name: string, fallback: number): number {
  const value = options?.[name];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number') throw new MetricOptionsError(`option ${name}: expected a number, got ${JSON.stringify(value)}`);
  return value;
}

/** `rules[field]`, with a clear error when the task's rules lack it. */
export function requireField<T = unknown>(obj: Record<string, unknown>, field: string, metric: string): T {
  if (!(field in obj)) throw new MetricOptionsError(`${metric}: rules has no "${field}" field`);
  return obj[field] as T;
}

/** The `rules` dict that a `rule` getter hands over as `expected`; throws a clear error when it is missing. */
export function rulesOf(expected: unknown, metric: string): Record<string, unknown> {
  if (!expected || typeof expected !== 'object' || Array.isArray(expected)) {
    throw new MetricOptionsError(`${metric}: expected must be the task's rules object (evaluator.expected.rules), got ${JSON.stringify(expected)}`);
  }
  return expected as Record<string, unknown>;
}

/**
 * A metric's file argument as the getters hand it over: a local path, or nothing (null, undefined or '') when the
 * getter found no file — OSWorld's `if not file: return 0`. Anything else is a caller error.
 */
export function filePath(value: unknown, what: string): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'string') return value;
  throw new MalformedInputError(`${what} must be a local file path, got ${JSON.stringify(value)}`);
}
