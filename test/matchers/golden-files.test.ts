// Expected files as goldens, the way toMatchFileSnapshot treats its file: `vitest -u` writes a missing or different
// golden from the received file; without -u (and on CI) a missing golden fails and says how to write it. Runs the real
// vitest CLI on a small project in a temporary folder.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { vitestCli } from '../plugin/run-vitest.ts';

const MATCHERS = resolve(import.meta.dirname, '../../src/matchers/index.ts');
const pdf = (name: string) => join(import.meta.dirname, 'fixtures', `${name}.pdf`);

function project(): string {
  const root = mkdtempSync(join(tmpdir(), 'deskbench-golden-'));
  mkdirSync(join(root, 'out'));
  copyFileSync(pdf('report'), join(root, 'out/report.pdf'));
  writeFileSync(join(root, 'vitest.config.ts'), `export default { test: { include: ['golden.test.ts'] } };\n`);
  writeFileSync(
    join(root, 'golden.test.ts'),
    `import ${JSON.stringify(MATCHERS)};\nimport { expect, test } from 'vitest';\n` +
      `test('report', async () => { await expect('out/report.pdf').toMatchPdf('golden/report.pdf'); });\n`,
  );
  return root;
}

describe('golden files', () => {
  test('missing: fails on CI with how to write it; -u writes it; then it passes without -u', async () => {
    const root = project();
    const ci = await vitestCli(root, ['run']);
    expect(ci.code).toBe(1);
    expect(ci.stdout + ci.stderr).toContain('the expected file golden/report.pdf does not exist: run vitest with -u to write it');
    expect(existsSync(join(root, 'golden/report.pdf'))).toBe(false);

    const update = await vitestCli(root, ['run', '-u']);
    expect(update.code, update.stdout + update.stderr).toBe(0);
    expect(readFileSync(join(root, 'golden/report.pdf'))).toEqual(readFileSync(pdf('report')));
    expect((await vitestCli(root, ['run'])).code).toBe(0);
  }, 120_000);

  test('different: fails without -u, and -u replaces the golden with the received file', async () => {
    const root = project();
    mkdirSync(join(root, 'golden'));
    copyFileSync(pdf('report-changed'), join(root, 'golden/report.pdf'));
    const failing = await vitestCli(root, ['run']);
    expect(failing.code).toBe(1);
    expect(failing.stdout + failing.stderr).toContain('first differing line 2');
    expect((await vitestCli(root, ['run', '-u'])).code).toBe(0);
    expect(readFileSync(join(root, 'golden/report.pdf'))).toEqual(readFileSync(pdf('report')));
  }, 120_000);
});
