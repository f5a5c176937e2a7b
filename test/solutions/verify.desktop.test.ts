// `deskbench verify` end to end, as a user runs it (the command in a child process), on real desktop containers:
// a task whose check is true before anyone acts is reported as a free pass of the noop agent; a task whose shipped
// solution falls short is reported with the scripted agent, while its second solution (<id>.gui.json) runs as
// scripted.gui and passes; and a few real corpus tasks with the repository's solutions verify (the CI subset), two of
// them solutions that act through the apps' own windows (Chrome's settings, LibreOffice's Options dialog).
// The two `deskbench verify` runs are independent and start at once, before the tests that check them: the fixture
// tasks' run mostly waits while its desktops start, beside the corpus tasks' run.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, test } from 'vitest';
import { desktopImage } from '../../src/desktop/image.ts';
import type { RunReport } from '../../src/node/report/aggregate.ts';
import type { VerificationSummary } from '../../src/contract/verification.ts';
import { type ChildRun, runChild } from '../helpers/child-run.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const OSWORLD = resolve(ROOT, '../shared/corpora/osworld/examples');
const IMAGE = desktopImage();
const hasImage = (await promisify(execFile)('docker', ['image', 'inspect', IMAGE]).then(() => true, () => false));

async function deskbenchVerify(args: string[]): Promise<ChildRun & { results: string }> {
  const results = await mkdtemp(join(tmpdir(), 'deskbench-verify-'));
  const run = await runChild(process.execPath, ['bin/deskbench.js', 'verify', ...args, '--max-workers', '2', '--results', results], {
    cwd: ROOT,
    env: { NO_COLOR: '1' },
    timeoutMs: 900_000,
  });
  return { ...run, results };
}

// The CI subset: real OSWorld tasks with the repository's own solutions (solutions/): an infeasible one (answered
// FAIL), and two that go through the apps' own windows, as a person would: Chrome's settings page (Do Not Track: a
// switch and its confirmation dialog) and LibreOffice Impress's Tools > Options dialog (auto-save). Every other
// shipped solution, the infeasible GIMP and VLC ones that were here too, is verified by the full runs whose figures
// the README gives (docs/verify/*.json); the infeasible rule itself by the examples and the runner's fail-agent test.
const subset = [
  'os/b3d4a89c-53f2-4d6b-8b6a-541fb5d205fa',
  'chrome/030eeff7-b492-4218-b312-701ec99ee0cc',
  'libreoffice_impress/2cd43775-7085-45d8-89fa-9e35c0a915cf',
];

let fixtureRun: Awaited<ReturnType<typeof deskbenchVerify>>;
let subsetRun: Awaited<ReturnType<typeof deskbenchVerify>> | undefined;
beforeAll(async () => {
  if (!hasImage) return;
  [fixtureRun, subsetRun] = await Promise.all([
    deskbenchVerify(['fixtures/verify/tasks', '--solutions', 'fixtures/verify/solutions', '--json']),
    existsSync(OSWORLD) ? deskbenchVerify(subset.map((task) => join(OSWORLD, `${task}.json`))) : undefined,
  ]);
}, 900_000);

describe.skipIf(!hasImage)(`deskbench verify, in desktop containers${hasImage ? '' : ` (skipped: docker image ${IMAGE} is missing)`}`, () => {
  test('reports a free pass naming the task and the noop agent, and a solution short of 1 naming the task and the scripted agent', async () => {
    const run = fixtureRun;
    expect(run.code, run.stderr.slice(-3000)).toBe(1);
    const out = JSON.parse(run.stdout) as VerificationSummary;
    expect({ tasks: out.tasks, solved: out.solved, verified: out.verified, errors: out.errors }).toEqual({ tasks: 2, solved: 2, verified: 0, errors: [] });
    expect(out.failures.map(({ id, agent, score, state }) => ({ id, agent, score, state })).sort((a, b) => a.id.localeCompare(b.id))).toEqual([
      { id: '0f5e0a1c-free-pass', agent: 'noop', score: 1, state: 'success' },
      { id: '7c2d9e41-wrong-solution', agent: 'scripted', score: 0, state: 'success' },
    ]);
    // The second solution ran apart and passed.
    expect(out.rows.find((row) => row.id === '7c2d9e41-wrong-solution')?.runs['scripted.gui']).toMatchObject({ scores: [1], asExpected: 1 });
    // Progress per kind of run went to stderr while it ran.
    expect(run.stderr).toContain('[deskbench verify] scripted 2/2 · scripted.gui 1/1 · noop 2/2');
    // What the figures come from.
    expect(out.environment).toMatchObject({ image: IMAGE, imageId: expect.stringMatching(/^sha256:/), commit: expect.stringMatching(/^[0-9a-f]{40}$/) });
    const report = JSON.parse(readFileSync(join(run.results, 'report.json'), 'utf8')) as RunReport;
    expect(report.verification).toMatchObject({ solved: 2, verified: 0, freePasses: ['0f5e0a1c-free-pass'] });
    expect(report.tasks.map((task) => `${task.agent} ${task.id}`).sort()).toEqual([
      'noop 0f5e0a1c-free-pass',
      'noop 7c2d9e41-wrong-solution',
      'scripted 0f5e0a1c-free-pass',
      'scripted 7c2d9e41-wrong-solution',
      'scripted.gui 7c2d9e41-wrong-solution',
    ]);
    // The second solution's results sit in a folder of their own, and the report points there.
    const gui = report.tasks.find((task) => task.agent === 'scripted.gui');
    expect(gui?.resultDir).toMatch(/^solution-gui\//);
    expect(existsSync(join(run.results, gui!.resultDir!, 'result.txt'))).toBe(true);
    const html = readFileSync(join(run.results, 'index.html'), 'utf8');
    expect(html).toContain('2 solved · <b>0 verified</b> · 2 failed runs · 1 free passes: 0f5e0a1c-free-pass');
    // Each agent's runs apart, never one rate over all of them.
    expect(html).toContain('<h2>Runs by agent</h2>');
    expect(html).not.toContain('id="domains"');
  });

  test.skipIf(!existsSync(OSWORLD))(
    `verifies a few real corpus tasks with the shipped solutions${existsSync(OSWORLD) ? '' : ' (skipped: ../shared/corpora/osworld is absent)'}`,
    async () => {
      const run = subsetRun!;
      expect(run.stdout).toContain(`verified ${subset.length} of ${subset.length} solved (${subset.length} tasks in the paths)`);
      expect(run.code, run.stdout + run.stderr.slice(-3000)).toBe(0);
      expect(run.stdout).toMatch(/b3d4a89c-53f2-4d6b-8b6a-541fb5d205fa\s+os\s+1\s+0\s+1\s+yes/);
      expect(run.stdout).toMatch(/030eeff7-b492-4218-b312-701ec99ee0cc\s+chrome\s+1\s+0\s+yes/);
      expect(run.stdout).toMatch(/2cd43775-7085-45d8-89fa-9e35c0a915cf\s+libreoffice_impress\s+1\s+0\s+yes/);
    },
  );
});
