// `deskbench files lock|pull|pack|unpack` and `deskbench check`'s files section as users run them: the real command in
// a child process, in a project folder of generated tasks whose files a loopback server serves.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { type Server, createServer, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CheckReport } from '../../src/node/cli/check.ts';
import { cacheFileName } from '../../src/files/cache.ts';
import { readLock } from '../../src/files/lockfile.ts';
import { type FileServer, startFileServer } from '../helpers/file-server.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/deskbench.js');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function deskbench(args: string[], cwd: string, env: Record<string, string> = {}): Promise<Run> {
  return new Promise((done) => {
    execFile(process.execPath, [BIN, ...args], { cwd, env: { ...process.env, NO_PROXY: '', no_proxy: '', HTTP_PROXY: '', http_proxy: '', ...env }, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      done({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

let server: FileServer;
beforeAll(async () => {
  server = await startFileServer();
});
afterAll(() => server.close());

/** A project folder with `count` OSWorld tasks under tasks/, each downloading one served file; returns its path. */
function project(count: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'deskbench-files-cli-'));
  mkdirSync(join(dir, 'tasks', 'os'), { recursive: true });
  const commit = 'e'.repeat(40);
  const tree = server.commits.trees.get(commit) ?? new Map<string, Buffer>();
  server.commits.trees.set(commit, tree);
  server.commits.refs.set('main', commit);
  for (let i = 0; i < count; i++) {
    const id = `${dir.slice(-6)}-${i}`;
    tree.set(`os/${id}.txt`, Buffer.alloc(20_000, `content of ${id} `));
    const task = {
      id,
      snapshot: 'os',
      instruction: `keep ${id}.txt`,
      source: 'test',
      config: [{ type: 'download', parameters: { files: [{ url: `${server.base}/resolve/main/os/${id}.txt`, path: `/home/user/${id}.txt` }] } }],
      evaluator: { func: 'infeasible' },
    };
    writeFileSync(join(dir, 'tasks', 'os', `${id}.json`), JSON.stringify(task));
  }
  return dir;
}

// Concurrent: each test works in a project folder of its own, on files of its own ids; most of its time is the
// command's start-up.
describe.concurrent('deskbench files', () => {
  test('lock --pin, check, pull --check, pull, pack and unpack on a fresh machine', async () => {
    const dir = project(3);
    const lock = await deskbench(['files', 'lock', 'tasks', '--pin'], dir);
    expect(lock.stderr).toMatch(/lock 3\/3 files · 58\.6 KiB\/58\.6 KiB · .* · done in/);
    expect(lock.stdout).toContain('deskbench-files.lock.json: 3 URLs locked; 3 of 3 tasks download files');
    expect(lock.stdout).toContain('3 fetched now (58.6 KiB), 0 kept as they were');
    expect(lock.stdout).toContain('3 pinned to a commit');
    expect(lock.code).toBe(0);
    const locked = readLock(join(dir, 'deskbench-files.lock.json'))!;
    expect(Object.values(locked.files).every((entry) => entry.source?.includes(`/resolve/${'e'.repeat(40)}/`))).toBe(true);

    // check: per task, locked and cached (lock fetches into the cache).
    const check = await deskbench(['check', 'tasks', '--json'], dir);
    const report = JSON.parse(check.stdout) as CheckReport;
    expect(report.files?.tasks.map((row) => [row.urls, row.locked, row.cached])).toEqual([
      [1, 1, 1],
      [1, 1, 1],
      [1, 1, 1],
    ]);
    expect((await deskbench(['check', 'tasks'], dir)).stdout).toMatch(/Files the tasks download \(3 tasks, 3 URLs; 3 tasks locked and cached\):\n {2}lock deskbench-files\.lock\.json; cache \.cache\/deskbench\n {2}ok {5} os\/\S+-0 +1 files: 1 locked, 1 cached/);

    // A file gone from the cache: check says so, pull --check fails naming it, pull fetches it again.
    const [first] = Object.keys(locked.files);
    rmSync(join(dir, '.cache/deskbench', cacheFileName(first)));
    expect((await deskbench(['check', 'tasks'], dir)).stdout).toMatch(/ {2}MISSING os\/\S+ +1 files: 1 locked, 0 cached/);
    const checked = await deskbench(['files', 'pull', '--check'], dir);
    expect(checked.code).toBe(1);
    expect(checked.stderr).toContain(`MISSING ${first}`);
    expect(checked.stdout).toContain('.cache/deskbench: 2 of 3 files ready; 1 missing, 0 changed');
    const pulled = await deskbench(['files', 'pull'], dir);
    expect(pulled.stdout).toContain('.cache/deskbench: 1 fetched (19.5 KiB), 2 already cached, all checked against the lock');
    expect(pulled.code).toBe(0);

    // pack, then unpack on a machine that has neither the cache nor the lock.
    const packed = await deskbench(['files', 'pack', 'files.tar.zst'], dir);
    expect(packed.stdout).toMatch(/^files\.tar\.zst: 3 files, 58\.6 KiB → [\d.]+ [KM]?i?B packed, with the lock\n$/);
    expect(packed.code).toBe(0);
    const offline = mkdtempSync(join(tmpdir(), 'deskbench-files-offline-'));
    const unpacked = await deskbench(['files', 'unpack', join(dir, 'files.tar.zst')], offline);
    expect(unpacked.stdout).toContain('.cache/deskbench: 3 files (58.6 KiB) unpacked, each checked against the packed lock');
    expect(unpacked.stdout).toContain('deskbench-files.lock.json: the packed lock (the project had none)');
    expect(unpacked.code).toBe(0);
    expect(readLock(join(offline, 'deskbench-files.lock.json'))).toEqual(locked);
    expect(readdirSync(join(offline, '.cache/deskbench')).sort()).toEqual(Object.keys(locked.files).map(cacheFileName).sort());
  }, 60_000);

  test('a file changed upstream: pull exits 1 naming the URL and both hashes', async () => {
    const dir = project(1);
    await deskbench(['files', 'lock', 'tasks'], dir);
    const [url] = Object.keys(readLock(join(dir, 'deskbench-files.lock.json'))!.files);
    server.commits.trees.get('e'.repeat(40))!.set(url.split('/resolve/main/')[1], Buffer.from('changed upstream'));
    rmSync(join(dir, '.cache'), { recursive: true });
    const pulled = await deskbench(['files', 'pull'], dir);
    expect(pulled.code).toBe(1);
    expect(pulled.stderr).toMatch(new RegExp(`CHANGED ${url.replace(/[.?]/g, '\\$&')}: the file changed upstream: its sha256 is [0-9a-f]{64}, the lock says [0-9a-f]{64}`));
  });

  test('HTTP_PROXY is honoured (no NODE_USE_ENV_PROXY needed): every request goes through the proxy', async () => {
    const dir = project(2);
    const seen: string[] = [];
    const proxy: Server = createServer((request, response) => {
      seen.push(`${request.method} ${request.url}`);
      const forward = httpRequest(request.url!, { method: request.method, headers: request.headers }, (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      });
      request.pipe(forward);
    });
    await new Promise<void>((done) => proxy.listen(0, '127.0.0.1', done));
    try {
      const port = (proxy.address() as { port: number }).port;
      const pulled = await deskbench(['files', 'pull', 'tasks'], dir, { HTTP_PROXY: `http://127.0.0.1:${port}`, NODE_USE_ENV_PROXY: '' });
      expect(pulled.code).toBe(0);
      // Each file: the redirect naming the commit, then the bytes, both through the proxy.
      expect(seen.filter((line) => line.startsWith(`GET ${server.base}/resolve/main/os/`))).toHaveLength(2);
      expect(seen.filter((line) => line.startsWith(`GET ${server.base}/cdn/`))).toHaveLength(2);
    } finally {
      proxy.closeAllConnections();
      await new Promise<void>((done) => proxy.close(() => done()));
    }
  });

  test('the settings of the vitest config: its tasks, cacheDir and filesLock', async () => {
    const dir = project(2);
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    writeFileSync(
      join(dir, 'vitest.config.ts'),
      `import { defineConfig } from 'vitest/config';\nimport { deskbench } from ${JSON.stringify(join(ROOT, 'src/node/plugin/index.ts'))};\n` +
        `export default defineConfig({ plugins: [deskbench({ tasks: 'tasks', cacheDir: 'my-cache', filesLock: 'locks/files.json' })] });\n`,
    );
    mkdirSync(join(dir, 'locks'));
    const lock = await deskbench(['files', 'lock'], dir);
    expect(lock.code).toBe(0);
    expect(lock.stdout).toContain('locks/files.json: 2 URLs locked');
    expect(readdirSync(join(dir, 'my-cache'))).toHaveLength(2);
    const check = await deskbench(['check'], dir);
    expect(check.stdout).toContain('lock locks/files.json; cache my-cache');
    expect(check.stdout).toContain('2 tasks locked and cached');
  }, 60_000);

  test('usage errors exit 2 with the usage; a missing lock for pack exits 1', async () => {
    const dir = project(1);
    const unknown = await deskbench(['files', 'bogus'], dir);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('deskbench files bogus: unknown subcommand "bogus"');
    expect(unknown.stderr).toContain('deskbench files lock [paths…]');
    const noTasks = await deskbench(['files', 'lock'], dir);
    expect(noTasks.code).toBe(2);
    expect(noTasks.stderr).toContain('no task paths given, and no vitest config');
    const badConcurrency = await deskbench(['files', 'pull', '--concurrency', '0'], dir);
    expect(badConcurrency.code).toBe(2);
    const pack = await deskbench(['files', 'pack', 'out.tar.gz'], dir);
    expect(pack.code).toBe(1);
    expect(pack.stderr).toContain('no lock at deskbench-files.lock.json: run deskbench files lock first');
    expect(existsSync(join(dir, 'out.tar.gz'))).toBe(false);
  });
});
