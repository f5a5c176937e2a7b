// The plugin's `extensions` option: a task that needs the user's own setup step, getter and metric runs end to end
// in a desktop container when the extension module is listed (fixtures/extension-project).
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { vitestCli } from './run-vitest.ts';

const PROJECT = resolve(import.meta.dirname, '../../fixtures/extension-project');

test("a task using the user's setup step, getter and metric passes when its extension is listed", async () => {
  const dir = await mkdtemp(join(tmpdir(), 'deskbench-extension-'));
  const out = join(dir, 'report.json');
  const run = await vitestCli(PROJECT, ['run', '--reporter=json', `--outputFile=${out}`], { DESKBENCH_RESULTS: join(dir, 'results') });
  const report = JSON.parse(await readFile(out, 'utf8')) as { testResults: { assertionResults: { status: string; failureMessages: string[]; meta: { deskbench?: { score?: number } } }[] }[] };
  const [result] = report.testResults.flatMap((file) => file.assertionResults);
  expect({ code: run.code, status: result.status, score: result.meta.deskbench?.score, failure: result.failureMessages[0] }).toEqual({
    code: 0,
    status: 'passed',
    score: 1,
    failure: undefined,
  });
});
