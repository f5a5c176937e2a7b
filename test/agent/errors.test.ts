import { describe, expect, it } from 'vitest';
import * as errors from '../../src/errors.ts';

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
});
