// The `desktop` option's errors name the field at fault (one per provider), including the warm desktop count.
import { describe, expect, test } from 'vitest';
import { resolveOptions } from '../../src/node/plugin/options.ts';

const desktopOf = (desktop: unknown) => resolveOptions({ tasks: 'tasks', desktop } as never).desktop;

describe('desktop option', () => {
  test('warm is a whole number of desktops, 0 allowed; left out, the plugin uses one per worker', () => {
    expect(desktopOf({ provider: 'docker', warm: 0 })).toEqual({ provider: 'docker', warm: 0 });
    expect(desktopOf({ provider: 'docker' })).toEqual({ provider: 'docker' });
    for (const warm of [-1, 1.5, 'two']) {
      expect(() => desktopOf({ provider: 'docker', warm })).toThrow('invalid option desktop.warm: expected a whole number of desktops (0 disables)');
    }
  });

  test('a wrong field names itself, not just "desktop"', () => {
    expect(() => desktopOf({ provider: 'docker', limits: { cpus: 'x' } })).toThrow(/invalid option desktop\.limits\.cpus: .*expected number/);
    expect(() => desktopOf({ provider: 'remote' })).toThrow(/invalid option desktop\.url: .*expected string/);
    expect(() => desktopOf({ provider: 'vm' })).toThrow(/invalid option desktop\.provider: .*'docker' \| 'remote'/);
  });
});
