// The issue's whole path on a real desktop: 21 OSWorld-format download tasks whose files a loopback server generates
// and serves (standing in for the dataset host, `…/resolve/main/…` with X-Repo-Commit), then
//   files lock --pin → files pull (progress shown) → files pack .tar.zst → files unpack on a second project folder
//   without a cache or a lock (the offline machine) → vitest run there.
// Each task downloads its input in setup and its gold file in evaluation (cloud_file) and compares the two
// (compare_text_file): the noop agent passes it when the right bytes arrived. Twenty are pinned and come from the
// unpacked cache alone — the server sees no request for them during the run, although `main` has moved on by then;
// the 21st names a plain URL whose file changed upstream after the lock: it fails as SETUP_ERROR, the infrastructure's
// error, in report.json, the HTML report and JUnit. The host fetches every file and uploads it to the desktop
// (src/adapters/osworld/setup-steps.ts `download`), so the desktop never has to reach the host's loopback.
// One desktop serves every task (the remote provider), one task at a time.
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { cacheFileName } from '../../src/files/cache.ts';
import { readLock } from '../../src/files/lockfile.ts';
import type { RunReport } from '../../src/node/report/aggregate.ts';
import { childEnv } from '../helpers/child-run.ts';
import { type TestDesktop, takeDesktop } from '../helpers/desktops.ts';
import { type FileServer, sha256, startFileServer } from '../helpers/file-server.ts';
import { vitestCli } from '../plugin/run-vitest.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const PINNED_TASKS = 20;
const COMMIT_LOCKED = '1'.repeat(40);
const COMMIT_LATER = '2'.repeat(40);

let desktop: TestDesktop;
let server: FileServer;
beforeAll(async () => {
  [desktop, server] = await Promise.all([takeDesktop(), startFileServer()]);
});
afterAll(async () => {
  await Promise.all([desktop?.stop(), server?.close()]);
});

function deskbench(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    // A run id of its own: childEnv says why.
    execFile(process.execPath, [join(ROOT, 'bin/deskbench.js'), ...args], { cwd, env: childEnv({ HTTP_PROXY: '', http_proxy: '' }) }, (error, stdout, stderr) =>
      done({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** An OSWorld task: `input` downloaded to the Desktop in setup, compared with `gold` (a cloud_file) in evaluation. */
function downloadTask(id: string, input: string, gold: string) {
  const path = `/home/user/Desktop/${id}.txt`;
  return {
    id,
    snapshot: 'os',
    instruction: `Keep ${id}.txt on the Desktop as it is.`,
    source: 'deskbench test',
    config: [{ type: 'download', parameters: { files: [{ url: input, path }] } }],
    related_apps: ['os'],
    evaluator: { func: 'compare_text_file', result: { type: 'vm_file', path, dest: `${id}.txt` }, expected: { type: 'cloud_file', path: gold, dest: `${id}-gold.txt` } },
  };
}

/** A project folder: tasks/os/*.json and a vitest config running them with the noop agent on the test's desktop. */
function writeProject(dir: string): void {
  mkdirSync(join(dir, 'tasks', 'os'), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  writeFileSync(
    join(dir, 'vitest.config.ts'),
    `import { defineConfig } from 'vitest/config';
import { deskbench } from ${JSON.stringify(join(ROOT, 'src/node/plugin/index.ts'))};
export default defineConfig({
  plugins: [deskbench({
    tasks: 'tasks',
    agent: 'noop',
    maxSteps: 1,
    pauseAfterAction: 0,
    // The files' plumbing is tested here, not the apps: no waiting for the desktop to settle (20 tasks, each
    // waited at least 4 s, and up to 80 s on a loaded machine).
    settleAfterSetup: 0,
    settleBeforeEvaluation: 0,
    timeout: 300,
    // The files commands read this config too, without the desktop's address: any URL does for them.
    desktop: { provider: 'remote', url: process.env.E2E_DESKTOP_URL ?? 'http://127.0.0.1:1', token: process.env.E2E_DESKTOP_TOKEN },
  })],
  test: { maxWorkers: 1 },
});
`,
  );
  const tree = new Map<string, Buffer>();
  const moved = new Map<string, Buffer>();
  for (let i = 0; i < PINNED_TASKS; i++) {
    const id = `dl-${String(i).padStart(2, '0')}`;
    const text = Buffer.from(`${id}: ${'generated line\n'.repeat(20 + i)}`);
    tree.set(`os/${id}/input.txt`, text);
    tree.set(`os/${id}/gold.txt`, text);
    // After the lock, main moves on to a commit where every file differs: the pins must keep runs on the locked one.
    moved.set(`os/${id}/input.txt`, Buffer.from(`${id}: moved on`));
    moved.set(`os/${id}/gold.txt`, Buffer.from(`${id}: moved on`));
    const base = `${server.base}/resolve/main/os/${id}`;
    writeFileSync(join(dir, 'tasks', 'os', `${id}.json`), JSON.stringify(downloadTask(id, `${base}/input.txt`, `${base}/gold.txt`), null, 2));
  }
  server.commits.trees.set(COMMIT_LOCKED, tree);
  server.commits.trees.set(COMMIT_LATER, moved);
  server.commits.refs.set('main', COMMIT_LOCKED);
  server.files.set('/files/changing.txt', Buffer.from('the locked content\n'));
  const changing = `${server.base}/files/changing.txt`;
  writeFileSync(join(dir, 'tasks', 'os', 'dl-changed.json'), JSON.stringify(downloadTask('dl-changed', changing, changing), null, 2));
}

test('lock → pull → pack → unpack → run: 20 download tasks pass from the unpacked files alone; a file changed upstream is an infrastructure error', async () => {
  const online = mkdtempSync(join(tmpdir(), 'deskbench-dl-online-'));
  writeProject(online);

  // lock (into the locking machine's cache), pinning the resolve/main URLs to the commit they came from.
  const lock = await deskbench(['files', 'lock', '--pin', '--cache-dir', '.lock-cache'], online);
  expect(lock.code, lock.stderr).toBe(0);
  expect(lock.stdout).toContain('deskbench-files.lock.json: 41 URLs locked; 21 of 21 tasks download files');
  expect(lock.stdout).toContain('40 pinned to a commit');
  const locked = readLock(join(online, 'deskbench-files.lock.json'))!;
  expect(locked.files[`${server.base}/resolve/main/os/dl-00/input.txt`].source).toBe(`${server.base}/resolve/${COMMIT_LOCKED}/os/dl-00/input.txt`);

  // pull into the project's cache: every file fetched, checked, with the progress shown (plain lines: not a terminal).
  const pull = await deskbench(['files', 'pull'], online);
  expect(pull.code, pull.stderr).toBe(0);
  expect(pull.stderr).toMatch(/pull 41\/41 files · [\d.]+ KiB\/[\d.]+ KiB · [\d.]+ [KM]?i?B\/s · done in [\d.]+ s/);
  expect(pull.stdout).toContain('.cache/deskbench: 41 fetched');

  const pack = await deskbench(['files', 'pack', 'osworld-files.tar.zst'], online);
  expect(pack.code, pack.stderr).toBe(0);
  expect(pack.stdout).toMatch(/^osworld-files\.tar\.zst: 41 files, [\d.]+ KiB → [\d.]+ KiB packed, with the lock/);

  // The offline machine: the same tasks and config, no lock, no cache; the archive unpacked there.
  const offline = mkdtempSync(join(tmpdir(), 'deskbench-dl-offline-'));
  cpSync(join(online, 'tasks'), join(offline, 'tasks'), { recursive: true });
  cpSync(join(online, 'vitest.config.ts'), join(offline, 'vitest.config.ts'));
  symlinkSync(join(ROOT, 'node_modules'), join(offline, 'node_modules'));
  const unpack = await deskbench(['files', 'unpack', join(online, 'osworld-files.tar.zst')], offline);
  expect(unpack.code, unpack.stderr).toBe(0);
  expect(unpack.stdout).toContain('deskbench-files.lock.json: the packed lock (the project had none)');
  expect(readLock(join(offline, 'deskbench-files.lock.json'))).toEqual(locked);

  // Upstream moves on: main to a new commit, and the unpinned file changes. The changed file is not in this cache.
  server.commits.refs.set('main', COMMIT_LATER);
  server.files.set('/files/changing.txt', Buffer.from('changed upstream\n'));
  const changing = `${server.base}/files/changing.txt`;
  rmSync(join(offline, '.cache/deskbench', cacheFileName(changing)));
  const check = await deskbench(['check'], offline);
  expect(check.stdout).toContain('Files the tasks download (21 tasks, 41 URLs; 20 tasks locked and cached):');
  expect(check.stdout).toMatch(/ {2}MISSING os\/dl-changed +1 files: 1 locked, 0 cached/);

  server.requests.length = 0;
  const run = await vitestCli(offline, ['run', '--reporter=default', '--reporter=junit', '--outputFile.junit=junit.xml'], {
    E2E_DESKTOP_URL: desktop.url,
    E2E_DESKTOP_TOKEN: desktop.token ?? '',
  });
  // The pinned files came from the cache alone; only the unlocked-in-the-cache file was fetched.
  expect(new Set(server.requests.map((request) => request.path))).toEqual(new Set(['/files/changing.txt']));

  const report = JSON.parse(readFileSync(join(offline, 'results', 'report.json'), 'utf8')) as RunReport;
  expect(report.total, run.stdout + run.stderr).toMatchObject({ tasks: 21, passed: 20, scored: 20 });
  expect(report.infrastructure).toEqual({ errors: 1, byCode: { DESKBENCH_FILE_CHANGED: 1 }, tasks: ['os/dl-changed'] });
  const changed = report.tasks.find((task) => task.id === 'dl-changed')!;
  expect(changed).toMatchObject({ state: 'SETUP_ERROR', score: null, infraError: 'DESKBENCH_FILE_CHANGED' });
  expect(changed.error).toContain(`${changing}: the file changed upstream: its sha256 is ${sha256('changed upstream\n')}, the lock says ${sha256('the locked content\n')}`);
  expect(run.stdout).toContain("1 task ended with an infrastructure error (1 DESKBENCH_FILE_CHANGED), not the agent's");
  expect(readFileSync(join(offline, 'results', 'index.html'), 'utf8')).toContain('<p id="infrastructure" class="fail">1 task ended with an infrastructure error');
  const junit = readFileSync(join(offline, 'junit.xml'), 'utf8');
  expect(junit).toMatch(/<property name="deskbench\.infrastructure_error" value="DESKBENCH_FILE_CHANGED"/);
  expect(junit).toMatch(/SETUP_ERROR \(infrastructure error DESKBENCH_FILE_CHANGED, not the agent(&apos;|&#39;|')s\)/);
  expect(junit.match(/<testcase /g)).toHaveLength(21);
}, 600_000);
