// Expected files as goldens, the way toMatchFileSnapshot treats its file: `vitest -u` writes a missing or different
// golden from the received file; without -u (and on CI) a missing golden fails and says how to write it. Runs the real
// vitest CLI on a small project in a temporary folder.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { type VitestRun, vitestCli } from '../plugin/run-vitest.ts';

const MATCHERS = resolve(import.meta.dirname, '../../src/matchers/index.ts');
const pdf = (name: string) => join(import.meta.dirname, 'fixtures', `${name}.pdf`);

/** A project whose test compares out/report.pdf with each golden: a missing one and a different one. */
function project(): string {
  const root = mkdtempSync(join(tmpdir(), 'deskbench-golden-'));
  mkdirSync(join(root, 'out'));
  copyFileSync(pdf('report'), join(root, 'out/report.pdf'));
  mkdirSync(join(root, 'golden'));
  copyFileSync(pdf('report-changed'), join(root, 'golden/different.pdf'));
  writeFileSync(join(root, 'vitest.config.ts'), `export default { test: { include: ['golden.test.ts'] } };\n`);
  writeFileSync(
    join(root, 'golden.test.ts'),
    `import ${JSON.stringify(MATCHERS)};\nimport { expect, test } from 'vitest';\n` +
      `test('missing', async () => { await expect('out/report.pdf').toMatchPdf('golden/missing.pdf'); });\n` +
      `test('different', async () => { await expect('out/report.pdf').toMatchPdf('golden/different.pdf'); });\n`,
  );
  return root;
}

// One project holds both cases, so the three vitest runs (on CI, with -u, again on CI) serve both tests.
describe('golden files', () => {
  let root: string;
  let ci: VitestRun;
  let update: VitestRun;
  let again: VitestRun;
  let writtenOnCi: boolean;
  beforeAll(async () => {
    root = project();
    ci = await vitestCli(root, ['run']);
    writtenOnCi = existsSync(join(root, 'golden/missing.pdf'));
    update = await vitestCli(root, ['run', '-u']);
    again = await vitestCli(root, ['run']);
  }, 120_000);

  test('missing: fails on CI with how to write it; -u writes it; then it passes without -u', () => {
    expect(ci.code).toBe(1);
    expect(ci.stdout + ci.stderr).toContain('the expected file golden/missing.pdf does not exist: run vitest with -u to write it');
    expect(writtenOnCi).toBe(false);
    expect(update.code, update.stdout + update.stderr).toBe(0);
    expect(readFileSync(join(root, 'golden/missing.pdf'))).toEqual(readFileSync(pdf('report')));
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });

  test('different: fails without -u, and -u replaces the golden with the received file', () => {
    expect(ci.code).toBe(1);
    expect(ci.stdout + ci.stderr).toContain('first differing line 2');
    expect(update.code).toBe(0);
    expect(readFileSync(join(root, 'golden/different.pdf'))).toEqual(readFileSync(pdf('report')));
  });
});
