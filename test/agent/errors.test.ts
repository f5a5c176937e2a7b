import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DesktopRequestError, DesktopUnavailableError } from '../../src/desktop/client.ts';
import * as errors from '../../src/errors.ts';
import { GetterError, MetricOptionsError, MetricResultError } from '../../src/eval/errors.ts';
import { DownloadError, FileChangedError, PackError } from '../../src/files/errors.ts';
import { SetupStepError, StepFailedError, StepParameterError } from '../../src/setup/errors.ts';
import { PathEscapeError } from '../../src/task/contained-path.ts';
import { MissingTaskPathError, TaskFileError } from '../../src/task/errors.ts';

describe('src/errors.ts', () => {
  const classes = Object.entries(errors).filter(([, value]) => typeof value === 'function') as [string, new (...args: never[]) => errors.DeskbenchError][];

  it('gives every error class its own stable code, and its name', () => {
    const made = classes.map(([name, Class]) => {
      const error = new (Class as unknown as new (...args: unknown[]) => errors.DeskbenchError)('provider', 1, 2, 'message');
      expect(error).toBeInstanceOf(errors.DeskbenchError);
      expect(error.name).toBe(name);
      expect(error.code).toMatch(/^DESKBENCH_[A-Z_]+$/);
      return error.code;
    });
    expect(new Set(made).size).toBe(classes.length);
  });

  it('keeps one AgentError that the agents\' own errors are kinds of', () => {
    expect(new errors.AgentTimeoutError('openai', 5)).toBeInstanceOf(errors.AgentError);
    expect(new errors.AgentRateLimitError('openai', 429, 4, 'still limited')).toBeInstanceOf(errors.AgentApiError);
    expect(new errors.AgentError('x', { cause: 'y' }).cause).toBe('y');
  });

  it('lists every code once; the error classes of other rooms take theirs from the list', () => {
    expect(new Set(errors.ERROR_CODES).size).toBe(errors.ERROR_CODES.length);
    const codes = new Set<string>(errors.ERROR_CODES);
    for (const [, Class] of classes) expect(codes.has(new (Class as unknown as new (...args: unknown[]) => errors.DeskbenchError)('provider', 1, 2, 'm').code)).toBe(true);
    const elsewhere = [
      new TaskFileError('t.json', 'id', 'bad'),
      new MissingTaskPathError('x', '', 'names nothing'),
      new PathEscapeError({ field: 'path' }, '../x', '/root', 'leaves its folder'),
      new DesktopRequestError('/screenshot', 500, 'boom'),
      new SetupStepError('config', 0, 'open', 'failed'),
      new StepParameterError('open: parameters.path must be a string'),
      new DownloadError('no answer'),
      new FileChangedError('http://x', 'a', 'b', 'the cache'),
      new PackError('out.zip: expected an archive name ending in .tar.zst'),
      new StepFailedError('chrome_open_tabs: could not connect to Chrome'),
      new DesktopUnavailableError('the run is ending'),
      new MetricOptionsError('compare_table: rules[0] has no "type"'),
      new MetricResultError('returned 7, not a score between 0 and 1'),
      new GetterError('rule: config.rules is missing'),
    ];
    expect(new Set(elsewhere.map((error) => error.code)).size).toBe(elsewhere.length);
    for (const error of elsewhere) {
      expect(error).toBeInstanceOf(errors.DeskbenchError);
      expect(codes.has(error.code), `${error.name}: ${error.code}`).toBe(true);
    }
  });

  it('no class of src/ extends the plain Error: each gets a code through DeskbenchError', () => {
    const root = join(import.meta.dirname, '../../src');
    const files = (readdirSync(root, { recursive: true }) as string[]).filter((file) => file.endsWith('.ts') && file !== 'errors.ts');
    const plain = files.filter((file) => /\bextends Error\b/.test(readFileSync(join(root, file), 'utf8')));
    expect(plain).toEqual([]);
  });
});
