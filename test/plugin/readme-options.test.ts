// The README's option table is the one place users read the plugin's options: it must list exactly the options the
// schema accepts, each with the default the schema applies. A new option without a row (or a changed default) fails here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { DEFAULT_OPTIONS, OPTION_NAMES } from '../../src/node/plugin/options.ts';

const README = readFileSync(join(import.meta.dirname, '../../README.md'), 'utf8');

/** The rows of the table under "### Plugin options": option name → its default cell. */
function optionRows(): Map<string, string> {
  const section = README.split('### Plugin options')[1]?.split('\n### ')[0];
  if (!section) throw new Error('README.md has no "### Plugin options" section');
  const rows = new Map<string, string>();
  for (const line of section.split('\n')) {
    const cells = line.match(/^\| `(\w+)` \| ([^|]+) \|/);
    if (cells) rows.set(cells[1], cells[2].trim());
  }
  return rows;
}

/** A default cell as written (`'scripted'`, `{ provider: 'docker' }`, `15`) read as the value it stands for. */
function cellValue(cell: string): unknown {
  if (cell === '–' || cell === '(required)') return undefined;
  const literal = cell.replace(/^`|`$/g, '');
  return new Function(`return (${literal});`)();
}

describe('the README option table', () => {
  const rows = optionRows();

  test('lists every option the plugin accepts, and no other', () => {
    expect([...rows.keys()].sort()).toEqual([...OPTION_NAMES].sort());
  });

  test("gives each option the schema's own default", () => {
    for (const name of OPTION_NAMES) {
      const expected = name === 'tasks' ? undefined : (DEFAULT_OPTIONS as Record<string, unknown>)[name];
      expect({ name, default: cellValue(rows.get(name) ?? '') }).toEqual({ name, default: expected });
    }
  });
});
