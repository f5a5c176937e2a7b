// The docker provider's parts that need no engine (its containers: test/desktop/isolation.desktop.test.ts).
import { describe, expect, test } from 'vitest';
import { parseSize } from '../../src/desktop/providers/docker/container.ts';

describe('parseSize', () => {
  test("Docker's units, and a clear error for anything else", () => {
    expect(parseSize('4g')).toBe(4 * 1024 ** 3);
    expect(parseSize('512m')).toBe(512 * 1024 ** 2);
    expect(parseSize('1.5GiB')).toBe(1.5 * 1024 ** 3);
    expect(parseSize(1000)).toBe(1000);
    expect(() => parseSize('lots')).toThrow(/memory must be a number of bytes or a size such as '4g'/);
  });
});
