import { describe, expect, test } from 'vitest';
import { flag } from '../../src/setup/parameters.ts';

describe('flag', () => {
  test('booleans, numbers and absent values', () => {
    expect(flag('execute', { shell: true }, 'shell')).toBe(true);
    expect(flag('execute', { shell: 0 }, 'shell')).toBe(false);
    expect(flag('execute', {}, 'shell')).toBe(false);
    expect(flag('execute', { shell: null }, 'shell', true)).toBe(true);
  });

  test('strings are Python-truthy, as OSWorld passes them to shell= (2373b66a writes "shell": "true")', () => {
    expect(flag('command', { shell: 'true' }, 'shell')).toBe(true);
    expect(flag('command', { shell: 'false' }, 'shell')).toBe(true);
    expect(flag('command', { shell: '' }, 'shell')).toBe(false);
  });

  test('anything else is a clear error naming the step and the field', () => {
    expect(() => flag('launch', { shell: ['yes'] }, 'shell')).toThrow(/launch: parameters\.shell must be true or false/);
  });
});
