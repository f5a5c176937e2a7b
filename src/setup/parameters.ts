// Reading a step's parameters with clear errors ("download: parameters.files[0].url must be a string (got 3)"),
// OSWorld's placeholder substitution ({CLIENT_PASSWORD}, {SCREEN_WIDTH}, …), and an abortable sleep.
import { StepParameterError } from './errors.ts';
import { describeValue } from '../shared/describe-value.ts';

export type Parameters = Record<string, unknown>;

function fail(step: string, key: string, expected: string, value: unknown): never {
  throw new StepParameterError(`${step}: parameters.${key} must be ${expected} (got ${describeValue(value)})`);
}

export function requireString(step: string, parameters: Parameters, key: string): string {
  const value = parameters[key];
  if (typeof value !== 'string' || !value) fail(step, key, 'a non-empty string', value);
  return value;
}

export function optionalString(step: string, parameters: Parameters, key: string, fallback = ''): string {
  const value = parameters[key];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'string') fail(step, key, 'a string', value);
  return value;
}

/**
 * Python truthiness for flags the formats write as true/false (sometimes 0/1, sometimes the string "true": OSWorld
 * hands the value to subprocess's `shell=` as it is, so any non-empty string is true there, "false" included).
 */
export function flag(step: string, parameters: Parameters, key: string, fallback = false): boolean {
  const value = parameters[key];
  if (value === undefined || value === null) return fallback;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'string') return value !== '';
  return fail(step, key, 'true or false', value);
}

export function number(step: string, parameters: Parameters, key: string, fallback?: number): number {
  const value = parameters[key] ?? fallback;
  if (typeof value !== 'number' || !Number.isFinite(value)) fail(step, key, 'a number', value);
  return value;
}

/** A command as OSWorld takes it: a string (shlex-split by the server unless shell) or a list of strings. */
export function command(step: string, parameters: Parameters, key = 'command'): string | string[] {
  const value = parameters[key];
  if (typeof value === 'string' && value) return value;
  if (Array.isArray(value) && value.length && value.every((part) => typeof part === 'string')) return value;
  return fail(step, key, 'a command (a non-empty string or list of strings)', value);
}

export function list(step: string, parameters: Parameters, key: string, fallback?: unknown[]): unknown[] {
  const value = parameters[key] ?? fallback;
  if (!Array.isArray(value)) fail(step, key, 'a list', value);
  return value;
}

export function stringList(step: string, parameters: Parameters, key: string, fallback?: string[]): string[] {
  const value = list(step, parameters, key, fallback);
  value.forEach((item, i) => {
    if (typeof item !== 'string') fail(step, `${key}[${i}]`, 'a string', item);
  });
  return value as string[];
}

/** An entry of a list of objects, e.g. `files[0]` of download: `{url, path}`. */
export function entry(step: string, key: string, index: number, value: unknown): Parameters {
  if (!value || typeof value !== 'object' || Array.isArray(value)) fail(step, `${key}[${index}]`, 'an object', value);
  return value as Parameters;
}

/**
 * The placeholders OSWorld's SetupController replaces in commands. `vars` usually comes from `setupVars`; a
 * placeholder with no value is left as written.
 */
export function setupVars(options: { password: string; screen: { width: number; height: number } }): Record<string, string> {
  const { width, height } = options.screen;
  return {
    CLIENT_PASSWORD: options.password,
    SCREEN_WIDTH: String(width),
    SCREEN_HEIGHT: String(height),
    SCREEN_WIDTH_HALF: String(Math.floor(width / 2)),
    SCREEN_HEIGHT_HALF: String(Math.floor(height / 2)),
  };
}

/** Replaces `{NAME}` for every NAME in `vars`, in every string inside `value` (objects and lists are copied). */
export function substituteVars<T>(value: T, vars: Record<string, string>): T {
  const names = Object.keys(vars);
  if (!names.length) return value;
  const pattern = new RegExp(`\\{(${names.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})\\}`, 'g');
  const visit = (item: unknown): unknown => {
    if (typeof item === 'string') return item.replace(pattern, (_, name: string) => vars[name]);
    if (Array.isArray(item)) return item.map(visit);
    if (item && typeof item === 'object') {
      return Object.fromEntries(Object.entries(item).map(([key, inner]) => [key, visit(inner)]));
    }
    return item;
  };
  return visit(value) as T;
}

/** setTimeout as a promise that rejects when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The message of any thrown value. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
