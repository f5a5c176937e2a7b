// deskbench as a user's project gets it: a copy under node_modules with its build (dist/), imported by package name
// from the user's vitest.config.ts, with the user's own TypeScript agent and extension. Node refuses to strip the
// types of .ts files under node_modules, so this is what breaks if the build or the package's exports are wrong.
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, test } from 'vitest';
import { childEnv } from '../helpers/child-run.ts';
import { vitestCli } from '../plugin/run-vitest.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const exec = promisify(execFile);
const TASK = join(ROOT, 'fixtures/tasks/extension/5e1c7a3b-0d2f-4c6e-9a8b-000000000001.json');

const CONFIG = `import { defineConfig } from 'vitest/config';
import { deskbench } from 'deskbench/plugin';

export default defineConfig({
  plugins: [deskbench({ tasks: 'tasks', agent: './my-agent.ts', extensions: ['./my-extension.ts'], timeout: 300 })],
  test: { env: { TESTCONTAINERS_RYUK_DISABLED: 'true' } },
});
`;
const AGENT = `import { defineAgent, type Agent } from 'deskbench';

const agent: Agent = defineAgent({ name: 'my-installed-agent', predict: () => ({ actions: ['DONE'] }) });
export default agent;
`;
// The extension fixture, importing deskbench by package name as a user's module would.
const EXTENSION = readFileSync(join(ROOT, 'fixtures/extensions/marker.ts'), 'utf8').replace("'../../src/index.ts'", "'deskbench'");

let project: string;

beforeAll(async () => {
  project = mkdtempSync(join(tmpdir(), 'deskbench-user-'));
  const installed = join(project, 'node_modules', 'deskbench');
  // The parts of package.json's "files" the image build reads (src/: the server bundles src/shared/shlex.ts), and the
  // shipped solutions `deskbench check` reads by default.
  for (const part of ['bin', 'scripts', 'docker', 'server', 'src', 'solutions', 'package.json']) cpSync(join(ROOT, part), join(installed, part), { recursive: true });
  // What `npm run build` (prepare / prepack) puts into the package.
  await exec(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(ROOT, 'tsconfig.build.json'), '--outDir', join(installed, 'dist')]);
  // Its dependencies, and the user's vitest (a peer dependency), without a registry.
  symlinkSync(join(ROOT, 'node_modules'), join(installed, 'node_modules'));
  symlinkSync(join(ROOT, 'node_modules/vitest'), join(project, 'node_modules', 'vitest'));
  mkdirSync(join(project, 'tasks'));
  cpSync(TASK, join(project, 'tasks', 'task.json'));
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'user-project', type: 'module', private: true }));
  writeFileSync(join(project, 'vitest.config.ts'), CONFIG);
  writeFileSync(join(project, 'my-agent.ts'), AGENT);
  writeFileSync(join(project, 'my-extension.ts'), EXTENSION);
}, 120_000);

describe('installed as a package', () => {
  test('the deskbench command runs its build, and counts the extension imported by package name', async () => {
    const { stdout, stderr } = await exec(process.execPath, [join(project, 'node_modules/deskbench/bin/deskbench.js'), 'check', 'tasks', '--json', '--extensions', './my-extension.ts'], { cwd: project, env: childEnv() });
    expect(stderr).toBe('');
    expect(JSON.parse(stdout)).toMatchObject({ tasks: 1, runnable: 1, unsupported: { steps: {}, getters: {}, metrics: {} } });
  });

  // npm test builds this tree's image before the tests; without it the command would start a build of minutes.
  const hash = execFileSync('bash', [join(ROOT, 'scripts/build-image.sh'), '--hash'], { encoding: 'utf8' }).trim();
  const built = spawnSync('docker', ['image', 'inspect', `deskbench/desktop:${hash}`], { stdio: 'ignore' }).status === 0;
  test.skipIf(!built)('`deskbench image` finds the image its docker/ and server/ build, and says it is up to date (skipped when this tree\'s image is not built)', async () => {
    // The tree's image, also when the tests run pinned to one (DESKBENCH_IMAGE=…:<tag>: the command then says nothing).
    const { stderr } = await exec(process.execPath, [join(project, 'node_modules/deskbench/bin/deskbench.js'), 'image'], { cwd: project, env: childEnv({ DESKBENCH_IMAGE: undefined }) });
    expect(stderr).toContain(`[deskbench image] deskbench/desktop:${hash} is up to date`);
  });

  test("vitest runs the user's task with the user's TypeScript agent and extension", async () => {
    const out = join(project, 'report.json');
    const run = await vitestCli(project, ['run', '--reporter=json', `--outputFile=${out}`]);
    const report = JSON.parse(readFileSync(out, 'utf8')) as { testResults: { assertionResults: { status: string; failureMessages: string[] }[] }[] };
    const [result] = report.testResults.flatMap((file) => file.assertionResults);
    expect({ code: run.code, status: result?.status, failure: result?.failureMessages[0] }).toEqual({ code: 0, status: 'passed', failure: undefined });
    const summary = JSON.parse(readFileSync(join(project, 'results/pyautogui/screenshot/my-installed-agent/tasks/5e1c7a3b-0d2f-4c6e-9a8b-000000000001/summary.json'), 'utf8'));
    expect(summary.results).toMatchObject({ score: 1, state: 'success' });
  });
});
