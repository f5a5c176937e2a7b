import { describe, expect, it } from 'vitest';
import { Registry } from '../../src/shared/registry.ts';

describe('Registry', () => {
  it('defines, gets and lists names; a format variant is a field of the entry, never part of its name', () => {
    const registry = new Registry<number>('metric');
    registry.define('compare_csv', 1);
    registry.define('compare_csv', 2, 'guios');
    registry.define('only_guios', 3, 'guios');
    expect(registry.get('compare_csv')).toBe(1);
    expect(registry.get('compare_csv', 'guios')).toBe(2);
    expect(registry.get('compare_csv', 'spider2v')).toBe(1);
    expect(registry.get('only_guios')).toBeUndefined();
    expect(registry.get('only_guios', 'guios')).toBe(3);
    expect(registry.has('only_guios')).toBe(true);
    expect(registry.has('compare_csv', 'spider2v')).toBe(false);
    expect(registry.names()).toEqual(['compare_csv', 'only_guios']);
  });

  it('says what an unknown name is, with the close names', () => {
    const registry = new Registry<number>('getter');
    registry.define('vm_file', 1);
    registry.define('cloud_file', 2);
    expect(registry.suggest('vm_fil')).toEqual(['vm_file']);
    expect(registry.unknownMessage('vm_fil')).toBe('unknown getter "vm_fil"; did you mean "vm_file"?');
    expect(registry.unknownMessage('zzz')).toBe('unknown getter "zzz"');
  });
});
