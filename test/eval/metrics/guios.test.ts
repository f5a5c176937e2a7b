// GUI-OS variants: compare_csv with pandas semantics, compare_text_file, compare_script_logs — on real files
// (fixtures/notebooks, written by scripts/fixtures/notebooks.ts, plus real GUI-OS task files).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { registerBuiltins } from '../../../src/eval/builtins.ts';
import { guiosMetrics, guiosVariants, readCsvLikePandas } from '../../../src/adapters/guios/metrics.ts';
import { metrics } from '../../../src/eval/registry.ts';
import { registerAdapters } from '../../../src/adapters/index.ts';

// The formats' own setup steps, getters and metrics (loading a task file registers them; these tests load none).
registerAdapters();

const dir = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'notebooks');
const f = (name: string) => join(dir, name);
const compareCsv = guiosVariants.compare_csv;
const compareText = guiosVariants.compare_text_file;
const compareLogs = guiosMetrics.compare_script_logs;

describe('read_csv dtype inference', () => {
  it('infers int64, float64, bool and object columns like pandas', () => {
    const columns = readCsvLikePandas('i,f,b,s,n,mixed\n1,1.5,True,x,,1\n2,2,false,y,,a\n');
    expect(columns.map((c) => [c.name, c.dtype])).toEqual([
      ['i', 'int64'],
      ['f', 'float64'],
      ['b', 'bool'],
      ['s', 'object'],
      ['n', 'float64'], // all missing
      ['mixed', 'object'], // "1" stays a string
    ]);
    expect(columns[5].values).toEqual(['1', 'a']);
  });

  it('turns an int column with a missing value into float64 and mangles duplicate headers', () => {
    const columns = readCsvLikePandas('a,a,\n1,"x, y",3\nNA,z,4\n');
    expect(columns.map((c) => c.name)).toEqual(['a', 'a.1', 'Unnamed: 2']);
    expect(columns[0].dtype).toBe('float64');
    expect(columns[1].values).toEqual(['x, y', 'z']);
  });
});

describe('compare_csv (GUI-OS)', () => {
  it('sorts columns; ignore_order sorts rows', async () => {
    expect(await compareCsv(f('expected.csv'), f('expected.csv'), {})).toBe(1);
    expect(await compareCsv(f('result-reordered.csv'), f('expected.csv'), { ignore_order: true })).toBe(1);
    expect(await compareCsv(f('result-reordered.csv'), f('expected.csv'), {})).toBe(0);
  });

  it('is dtype-sensitive (DataFrame.equals): 3.0 is not 3', async () => {
    expect(await compareCsv(f('result-float-score.csv'), f('expected.csv'), { ignore_order: true })).toBe(0);
  });

  it('strict=False strips string cells; ignore_case lower-cases them', async () => {
    expect(await compareCsv(f('result-padded.csv'), f('expected.csv'), {})).toBe(0);
    expect(await compareCsv(f('result-padded.csv'), f('expected.csv'), { strict: false })).toBe(1);
    expect(await compareCsv(f('result-upper.csv'), f('expected.csv'), {})).toBe(0);
    expect(await compareCsv(f('result-upper.csv'), f('expected.csv'), { ignore_case: true })).toBe(1);
  });

  it('treats pandas NA markers and empty cells alike, skips blank lines, reads CRLF', async () => {
    expect(await compareCsv(f('result-missing.csv'), f('expected-missing.csv'), {})).toBe(1);
  });

  it('on the real allGames task: the gold passes, the unfilled input (NaN, float) fails', async () => {
    expect(await compareCsv(f('guios/allGames_gold.csv'), f('guios/allGames_gold.csv'), { ignore_order: true })).toBe(1);
    expect(await compareCsv(f('guios/allGames.csv'), f('guios/allGames_gold.csv'), { ignore_order: true })).toBe(0);
  });

  it('scores 0 for a missing or unparseable file', async () => {
    expect(await compareCsv(null, f('expected.csv'), {})).toBe(0);
    expect(await compareCsv(f('nope.csv'), f('expected.csv'), {})).toBe(0);
  });
});

describe('compare_text_file (GUI-OS)', () => {
  it('exact by default; ignore_blanks collapses whitespace', async () => {
    expect(await compareText(f('code-gold.txt'), f('code-gold.txt'), {})).toBe(1);
    expect(await compareText(f('code-tabs.txt'), f('code-gold.txt'), {})).toBe(0);
    expect(await compareText(f('code-tabs.txt'), f('code-gold.txt'), { ignore_blanks: true })).toBe(1);
    expect(await compareText(f('code-other.txt'), f('code-gold.txt'), { ignore_blanks: true })).toBe(0);
  });
});

describe('compare_script_logs', () => {
  const rules = { include: ['SUCCESS'], exclude: ['FAILURE'] };
  it('checks include/exclude substrings in the log file or text', async () => {
    expect(await compareLogs(f('eval-success.log'), undefined, { rules })).toBe(1);
    expect(await compareLogs(f('eval-failure.log'), undefined, { rules })).toBe(0);
    expect(await compareLogs('python3 kernel ok\n', undefined, { rules: { include: ['python3'], exclude: ['jupyter-kernel'] } })).toBe(1);
  });

  it('scores 0 without rules or without a log', async () => {
    expect(await compareLogs(f('eval-success.log'), undefined, {})).toBe(0);
    expect(await compareLogs(null, undefined, { rules })).toBe(0);
  });
});

const corpus = '/work/shared/corpora/guios/examples/jupyter';
describe.skipIf(!existsSync(corpus))('real GUI-OS tasks (needs /work/shared/corpora/guios; skipped when absent)', () => {
  it('every gold csv/txt scores 1 against itself with its task options', async () => {
    let checked = 0;
    for (const id of readdirSync(corpus)) {
      const { func, arguments: args } = JSON.parse(readFileSync(join(corpus, id, `${id}.json`), 'utf8')).evaluation;
      const metric = guiosVariants[func];
      if (func !== 'compare_csv' && func !== 'compare_text_file') continue;
      const gold = join(corpus, id, args.local_expected ?? args.local_expected_file);
      const options = Object.fromEntries(Object.entries(args).filter(([k]) => !k.startsWith('vm_') && !k.startsWith('local_')));
      expect(await metric!(gold, gold, options), `${id} ${func}`).toBe(1);
      checked++;
    }
    expect(checked).toBe(12);
  });
});

it('registers the GUI-OS variants as the guios format\'s own, beside OSWorld\'s namesakes', () => {
  registerBuiltins();
  expect(metrics.get('compare_csv', 'guios')).toBe(compareCsv);
  expect(metrics.get('compare_text_file', 'guios')).toBe(compareText);
  expect(metrics.get('compare_script_logs', 'guios')).toBe(compareLogs);
  expect(metrics.get('compare_csv')).not.toBe(compareCsv);
  expect(metrics.names().filter((name) => name.includes(':'))).toEqual([]);
});
