// The plugin's `extensions` option: a task that needs the user's own setup step, getter and metric runs end to end
// in a desktop container when the extension module is listed (fixtures/extension-project). And an agent module named
// by DESKBENCH_AGENT is imported through vitest, like the config's. The two runs are independent and mostly wait on
// their desktop: they start at once, before the tests that check them.
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, expect, test } from 'vitest';
import { vitestCli } from './run-vitest.ts';

const PROJECT = resolve(import.meta.dirname, '../../fixtures/extension-project');

interface Assertion {
  status: string;
  failureMessages: string[];
  meta: { deskbench?: { score?: number; resultDir?: string } };
}

async function runProject(env: Record<string, string> = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'deskbench-extension-'));
  const out = join(dir, 'report.json');
  const run = await vitestCli(PROJECT, ['run', '--reporter=json', `--outputFile=${out}`], { DESKBENCH_RESULTS: join(dir, 'results'), ...env });
  const report = JSON.parse(await readFile(out, 'utf8')) as { testResults: { assertionResults: Assertion[] }[] };
  const [result] = report.testResults.flatMap((file) => file.assertionResults);
  return { run, result };
}

let withExtension: Awaited<ReturnType<typeof runProject>>;
let withAgentModule: Awaited<ReturnType<typeof runProject>>;
beforeAll(async () => {
  [withExtension, withAgentModule] = await Promise.all([runProject(), runProject({ DESKBENCH_AGENT: '../agents/enum-done.ts' })]);
}, 300_000);

test("a task using the user's setup step, getter and metric passes when its extension is listed", () => {
  const { run, result } = withExtension;
  expect({ code: run.code, status: result.status, score: result.meta.deskbench?.score, failure: result.failureMessages[0] }).toEqual({
    code: 0,
    status: 'passed',
    score: 1,
    failure: undefined,
  });
});

test('DESKBENCH_AGENT naming a module: it is imported through vitest, so TypeScript beyond type stripping works', () => {
  const { run, result } = withAgentModule;
  expect({ code: run.code, status: result.status, failure: result.failureMessages[0] }).toEqual({ code: 0, status: 'passed', failure: undefined });
  expect(result.meta.deskbench?.resultDir).toContain('/enum-done/');
});
