// Line and column of a JSON path, and of the first syntax error, in real text: errors point at their own line.
import { describe, expect, test } from 'vitest';
import { locateJsonPath, locationAt, syntaxErrorOffset } from '../../src/task/json-location.ts';

const TEXT = `{
  "id": "x",
  "note": "a \\"quoted\\" } ] , string",
  "config": [
    { "type": "launch", "parameters": { "command": ["a", "b"] } },
    {
      "type": 3
    }
  ],
  "evaluator": { "func": ["m1", "m2"], "result": [{ "type": "vm_file" }] }
}`;

describe('locateJsonPath', () => {
  test.each([
    [['id'], { line: 2, column: 9 }],
    [['config', 1, 'type'], { line: 7, column: 15 }],
    [['config', 0, 'parameters', 'command', 1], { line: 5, column: 58 }],
    [['evaluator', 'result'], { line: 10, column: 50 }],
    [[], { line: 1, column: 1 }],
  ] as const)('%j', (path, location) => {
    expect(locateJsonPath(TEXT, path)).toEqual(location);
  });

  test('a missing field points at the object it is missing from', () => {
    expect(locateJsonPath(TEXT, ['instruction'])).toEqual({ line: 1, column: 1 });
    expect(locateJsonPath(TEXT, ['config', 1, 'parameters'])).toEqual({ line: 6, column: 5 });
    expect(locateJsonPath(TEXT, ['config', 5])).toEqual({ line: 4, column: 13 });
  });
});

describe('syntaxErrorOffset', () => {
  // Positions as Python's json module reports them (line, column).
  test.each([
    ['{\n  "a": 1,\n}', { line: 3, column: 1 }],
    ['{\n  "tags": [\n    "x", // comment\n  ]\n}', { line: 3, column: 10 }],
    ['{"a": tru}', { line: 1, column: 7 }],
    ['{"a": "line\nbreak"}', { line: 1, column: 12 }],
    ['{"a": 1} extra', { line: 1, column: 10 }],
    ['{"a": [1, 2', { line: 1, column: 12 }],
  ])('%j', (text, location) => {
    const offset = syntaxErrorOffset(text);
    expect(offset).toBeDefined();
    expect(locationAt(text, offset!)).toEqual(location);
  });

  test('valid JSON has none', () => {
    expect(syntaxErrorOffset(TEXT)).toBeUndefined();
    expect(syntaxErrorOffset(' [1, -2.5e3, true, null, "\\u00e9"] ')).toBeUndefined();
  });
});
