// The README's "Getting started in your own project", run as written: its shell blocks in order in a fresh folder
// beside a tarball of this checkout (npm pack), its file blocks (a first line `// <file name>`) written into the
// project. The npm registry is needed for vitest and deskbench's dependencies, as it is for a user.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { desktopImage } from '../../src/desktop/image.ts';
import { childEnv } from '../helpers/child-run.ts';

const ROOT = resolve(import.meta.dirname, '../..');

interface Block {
  lang: string;
  body: string;
}

/** The fenced code blocks of one `## ` section of the README, in order. */
export function sectionBlocks(markdown: string, heading: string): Block[] {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`README has no section "## ${heading}"`);
  const end = markdown.indexOf('\n## ', start + 1);
  const section = markdown.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/```(\w*)\n([\s\S]*?)```/g)].map((match) => ({ lang: match[1], body: match[2] }));
}

const hasImage = spawnSync('docker', ['image', 'inspect', desktopImage()], { stdio: 'ignore' }).status === 0;
const npmAnswers = spawnSync('npm', ['view', 'vitest', 'version'], { stdio: 'ignore', timeout: 30_000 }).status === 0;

describe.skipIf(!hasImage || !npmAnswers)(`the README's getting started (needs ${desktopImage()} and the npm registry)`, () => {
  test('runs verbatim from a packed tarball: install, image, config, first run, type check', async () => {
    const blocks = sectionBlocks(readFileSync(join(ROOT, 'README.md'), 'utf8'), 'Getting started in your own project');
    const shells = blocks.filter((block) => block.lang === 'sh');
    const files = blocks.filter((block) => block.lang !== 'sh');
    expect(shells.length).toBe(2);
    expect(files.map((block) => block.body.split('\n')[0])).toEqual(['// tsconfig.json', '// vitest.config.ts']);

    const work = mkdtempSync(join(tmpdir(), 'deskbench-getting-started-'));
    execFileSync('npm', ['pack', '--silent', '--pack-destination', work], { cwd: ROOT, stdio: 'ignore' });
    const [tarball] = readdirSync(work).filter((name) => name.endsWith('.tgz'));
    // The README names the tarball by this checkout's version.
    const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
    renameSync(join(work, tarball), join(work, `deskbench-${version}.tgz`));
    expect(shells[0].body).toContain(`../deskbench-${version}.tgz`);

    // The README's `npx vitest run` runs the plugin: a run id of its own (childEnv says why; inheriting this worker's
    // removed the other files' desktops mid-test).
    const env = childEnv({ CI: 'true' }, 'getting-started');
    const bash = (script: string) => {
      const run = spawnSync('bash', ['-euo', 'pipefail', '-c', script], { cwd: work, encoding: 'utf8', env, timeout: 900_000 });
      return { code: run.status, output: `${run.stdout}\n${run.stderr}` };
    };
    const install = bash(shells[0].body);
    expect(install.code, install.output).toBe(0);
    const project = join(work, 'my-bench');
    expect(JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')).type).toBe('module');
    for (const block of files) writeFileSync(join(project, block.body.split('\n')[0].slice(3).trim()), block.body);

    const firstRun = bash(`cd my-bench\n${shells[1].body}`);
    expect(firstRun.code, firstRun.output).toBe(0);
    const report = JSON.parse(readFileSync(join(project, 'results/report.json'), 'utf8')) as { total: { tasks: number; passed: number } };
    expect(report.total.tasks).toBeGreaterThanOrEqual(2);
    expect(report.total.passed).toBe(report.total.tasks);
    // With type=module, Node has nothing to warn about the project's modules.
    expect(firstRun.output).not.toContain('MODULE_TYPELESS_PACKAGE_JSON');
  }, 900_000);
});
