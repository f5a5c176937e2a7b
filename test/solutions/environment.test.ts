// What a verification records about where its figures come from: the date, the commit, the image (when the engine
// has it) and the build hash of the tree, as scripts/build-image.sh --hash prints it.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { verifyEnvironment } from '../../src/node/verify/environment.ts';

const ROOT = resolve(import.meta.dirname, '../..');

test("the date, deskbench's commit and the tree's build hash; an image the engine lacks (or no engine) leaves its id out", async () => {
  const env = await verifyEnvironment(ROOT, 'deskbench/no-such-image:latest', new Date('2026-11-27T10:04:31Z'));
  expect(env).toMatchObject({
    date: '2026-11-27T10:04:31.000Z',
    commit: execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim(),
    dirty: expect.any(Boolean),
    image: 'deskbench/no-such-image:latest',
    treeBuildHash: execFileSync('bash', ['scripts/build-image.sh', '--hash'], { cwd: ROOT, encoding: 'utf8' }).trim(),
  });
  expect(env.treeBuildHash).toMatch(/^[0-9a-f]{12}$/);
  expect(env.imageId).toBeUndefined();
  expect(env.imageBuildHash).toBeUndefined();
  expect(env.cores).toBeGreaterThan(0);
});

test('outside a checkout: no commit, no build hash, and no error', async () => {
  const env = await verifyEnvironment('/nonexistent/deskbench', 'deskbench/no-such-image:latest');
  expect(env.commit).toBeUndefined();
  expect(env.treeBuildHash).toBeUndefined();
  expect(env.image).toBe('deskbench/no-such-image:latest');
});

test('dirty: uncommitted changes to what verify runs, not to documentation or tests', async () => {
  const repo = mkdtempSync(join(tmpdir(), 'deskbench-dirty-'));
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: repo });
  mkdirSync(join(repo, 'docs'));
  mkdirSync(join(repo, 'solutions'));
  writeFileSync(join(repo, 'README.md'), 'a\n');
  writeFileSync(join(repo, 'docs/notes.md'), 'a\n');
  writeFileSync(join(repo, 'solutions/task.json'), '{}\n');
  git('init', '-q');
  git('add', '.');
  git('commit', '-qm', 'start');
  const dirty = async () => (await verifyEnvironment(repo, 'deskbench/no-such-image:latest')).dirty;
  expect(await dirty()).toBe(false);
  writeFileSync(join(repo, 'README.md'), 'b\n');
  writeFileSync(join(repo, 'docs/notes.md'), 'b\n');
  expect(await dirty()).toBe(false);
  writeFileSync(join(repo, 'solutions/task.json'), '{"steps": []}\n');
  expect(await dirty()).toBe(true);
});
