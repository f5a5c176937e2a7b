// The files the tasks download, against a real HTTP server on the loopback (test/helpers/file-server.ts): lock, pull
// (concurrent, resumed, retried, checked), the cache check, pack and unpack, pinning, the mirror, and the run-time
// check of a file against the lock. No mock of the network anywhere.
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { cacheFileName } from '../../src/files/cache.ts';
import { FileChangedError, infrastructureErrorCode } from '../../src/files/errors.ts';
import { lockTaskFiles, pinnedUrl } from '../../src/files/lock.ts';
import { type FilesLock, LOCKFILE_NAME, formatLock, parseLock, readLock, writeLock } from '../../src/files/lockfile.ts';
import { effectiveMirror, mirrored, parseMirror } from '../../src/files/mirror.ts';
import { compressionOf, packFiles, unpackFiles } from '../../src/files/pack.ts';
import { ProgressBar } from '../../src/files/progress-bar.ts';
import { checkCache, pullFiles } from '../../src/files/pull.ts';
import { tarStream } from '../../src/files/tar.ts';
import { taskUrls } from '../../src/files/task-urls.ts';
import { SetupStepError } from '../../src/setup/errors.ts';
import { createFileResolver } from '../../src/setup/downloads.ts';
import { readTaskFile } from '../../src/adapters/load.ts';
import type { Task } from '../../src/task/types.ts';
import { type FileServer, sha256, startFileServer } from '../helpers/file-server.ts';

let server: FileServer;
beforeAll(async () => {
  server = await startFileServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.files.clear();
  server.requests.length = 0;
  server.failTimes.clear();
  server.cutOnce.clear();
  server.delayMs = 0;
});

function folder(): string {
  return mkdtempSync(join(tmpdir(), 'deskbench-files-'));
}

/** An OSWorld task that downloads `inputs` in setup and compares with the gold file `gold` (a cloud_file). */
function task(dir: string, id: string, inputs: string[], gold?: string): Task {
  const file = join(dir, `${id}.json`);
  const data = {
    id,
    snapshot: 'os',
    instruction: `task ${id}`,
    source: 'test',
    config: [{ type: 'download', parameters: { files: inputs.map((url, i) => ({ url, path: `/home/user/Desktop/${id}-${i}.txt` })) } }],
    related_apps: ['os'],
    evaluator: gold
      ? { func: 'compare_text_file', result: { type: 'vm_file', path: `/home/user/Desktop/${id}-0.txt`, dest: 'out.txt' }, expected: { type: 'cloud_file', path: gold, dest: 'gold.txt' } }
      : { func: 'infeasible' },
  };
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, JSON.stringify(data));
  const parsed = readTaskFile(file, { explicit: true });
  if (parsed.kind !== 'task') throw new Error(JSON.stringify(parsed));
  return parsed.task;
}

/** `count` files of `size` bytes served at /files/f<i>.bin, each with distinct bytes. */
function serveFiles(count: number, size = 1000): string[] {
  return Array.from({ length: count }, (_, i) => {
    const path = `/files/f${i}.bin`;
    server.files.set(path, Buffer.alloc(size, `file ${i} `));
    return `${server.base}${path}`;
  });
}

const QUICK = { backoffMs: 10 };

describe('the URLs of a task', () => {
  test('download steps and cloud_file getters, each once; local paths and file: URLs are not downloads', () => {
    const dir = folder();
    const t = task(dir, 'a', ['https://host/x.txt', 'file:local.txt', 'inputs/y.txt', 'https://host/x.txt'], 'https://host/gold.txt');
    expect(taskUrls(t)).toEqual(['https://host/x.txt', 'https://host/gold.txt']);
  });
});

describe('files lock', () => {
  test('fetches each URL once and records sha256, size, content type, the tasks using it and the date', async () => {
    const dir = folder();
    const [a, b, c] = serveFiles(3);
    const tasks = [task(dir, 't1', [a, b], c), task(dir, 't2', [a])];
    const now = new Date('2026-01-02T03:04:05Z');
    const { lock, fetched, kept } = await lockTaskFiles(tasks, undefined, { cacheDir: join(dir, 'cache'), now, ...QUICK });
    expect(fetched.map((r) => r.status)).toEqual(['fetched', 'fetched', 'fetched']);
    expect(kept).toBe(0);
    expect(lock.files[a]).toEqual({ sha256: sha256(server.files.get('/files/f0.bin')!), size: 1000, contentType: 'application/octet-stream', tasks: ['t1', 't2'], lockedAt: now.toISOString() });
    expect(lock.files[c].tasks).toEqual(['t1']);
    expect(server.hits('/files/f0.bin')).toBe(1);
    // Written sorted, and read back the same.
    const path = join(dir, LOCKFILE_NAME);
    writeLock(path, lock);
    expect(readLock(path)).toEqual(lock);
    expect(Object.keys(JSON.parse(readFileSync(path, 'utf8')).files)).toEqual([a, b, c].sort());
  });

  test('a second lock keeps the entries it has (no fetch); --update fetches them again', async () => {
    const dir = folder();
    const [a] = serveFiles(1);
    const tasks = [task(dir, 't1', [a])];
    const first = await lockTaskFiles(tasks, undefined, { cacheDir: join(dir, 'cache'), ...QUICK });
    server.files.set('/files/f0.bin', Buffer.from('moved on'));
    const again = await lockTaskFiles(tasks, first.lock, { cacheDir: join(dir, 'cache'), ...QUICK });
    expect(again.lock).toEqual(first.lock);
    expect(server.hits('/files/f0.bin')).toBe(1);
    const updated = await lockTaskFiles(tasks, first.lock, { cacheDir: join(dir, 'cache'), update: true, ...QUICK });
    expect(updated.lock.files[a].sha256).toBe(sha256('moved on'));
  });

  test('--pin records the commit of a …/resolve/main/… URL from X-Repo-Commit, and pulls fetch that commit when main moves', async () => {
    const dir = folder();
    const commit1 = 'a'.repeat(40);
    const commit2 = 'b'.repeat(40);
    server.commits.trees.set(commit1, new Map([['calc/sheet.csv', Buffer.from('a,b\n1,2\n')]]));
    server.commits.refs.set('main', commit1);
    const url = `${server.base}/resolve/main/calc/sheet.csv`;
    const { lock } = await lockTaskFiles([task(dir, 't1', [url])], undefined, { cacheDir: join(dir, 'cache'), pin: true, ...QUICK });
    expect(lock.files[url]).toMatchObject({ source: `${server.base}/resolve/${commit1}/calc/sheet.csv`, repoCommit: commit1, sha256: sha256('a,b\n1,2\n') });
    // main moves on to a new commit whose file differs: a fresh cache still gets the locked file.
    server.commits.trees.set(commit2, new Map([['calc/sheet.csv', Buffer.from('changed')]]));
    server.commits.refs.set('main', commit2);
    const [result] = await pullFiles([{ url, entry: lock.files[url] }], { cacheDir: join(dir, 'fresh'), ...QUICK });
    expect(result.status).toBe('fetched');
    expect(readFileSync(result.path!, 'utf8')).toBe('a,b\n1,2\n');
    expect(server.requests.at(-2)?.path).toBe(`/resolve/${commit1}/calc/sheet.csv`);
  });

  test('pinnedUrl replaces a branch, never a commit, and needs a commit-shaped header', () => {
    const commit = 'c'.repeat(40);
    expect(pinnedUrl('https://hf.co/datasets/x/resolve/main/a/b.txt', commit)).toBe(`https://hf.co/datasets/x/resolve/${commit}/a/b.txt`);
    expect(pinnedUrl(`https://hf.co/datasets/x/resolve/${'d'.repeat(40)}/a.txt`, commit)).toBeUndefined();
    expect(pinnedUrl('https://hf.co/datasets/x/resolve/main/a.txt', 'not-a-commit')).toBeUndefined();
    expect(pinnedUrl('https://example.com/a.txt', commit)).toBeUndefined();
  });
});

describe('files pull', () => {
  async function locked(dir: string, urls: string[]): Promise<FilesLock> {
    return (await lockTaskFiles([task(dir, 't', urls)], undefined, { cacheDir: join(dir, 'lock-cache'), ...QUICK })).lock;
  }

  test('fetches every locked file, several at once, each checked; a second pull finds them cached', async () => {
    const dir = folder();
    const urls = serveFiles(12, 5000);
    const lock = await locked(dir, urls);
    server.requests.length = 0;
    server.delayMs = 30;
    const items = urls.map((url) => ({ url, entry: lock.files[url] }));
    const results = await pullFiles(items, { cacheDir: join(dir, 'cache'), concurrency: 4, ...QUICK });
    expect(results.map((r) => r.status)).toEqual(urls.map(() => 'fetched'));
    for (const [i, result] of results.entries()) expect(readFileSync(result.path!)).toEqual(server.files.get(`/files/f${i}.bin`));
    const again = await pullFiles(items, { cacheDir: join(dir, 'cache'), ...QUICK });
    expect(again.map((r) => r.status)).toEqual(urls.map(() => 'cached'));
    expect(server.requests).toHaveLength(12);
  });

  test('a file changed between lock and pull: "changed", naming the URL, both hashes and "the file changed upstream"', async () => {
    const dir = folder();
    const [a, b] = serveFiles(2);
    const lock = await locked(dir, [a, b]);
    server.files.set('/files/f1.bin', Buffer.from('new content upstream'));
    const results = await pullFiles([a, b].map((url) => ({ url, entry: lock.files[url] })), { cacheDir: join(dir, 'cache'), ...QUICK });
    expect(results.map((r) => r.status)).toEqual(['fetched', 'changed']);
    expect(results[1].error).toContain(b);
    expect(results[1].error).toContain('the file changed upstream');
    expect(results[1].error).toContain(lock.files[b].sha256);
    expect(results[1].error).toContain(sha256('new content upstream'));
  });

  test('a stale cached copy is fetched again and then matches the lock', async () => {
    const dir = folder();
    const [a] = serveFiles(1);
    const lock = await locked(dir, [a]);
    mkdirSync(join(dir, 'cache'));
    writeFileSync(join(dir, 'cache', cacheFileName(a)), 'an older copy');
    const logs: string[] = [];
    const [result] = await pullFiles([{ url: a, entry: lock.files[a] }], { cacheDir: join(dir, 'cache'), log: (m) => logs.push(m), ...QUICK });
    expect(result.status).toBe('fetched');
    expect(sha256(readFileSync(result.path!))).toBe(lock.files[a].sha256);
    expect(logs.join('\n')).toContain('the cached copy is not the locked file');
  });

  test('a file that fails twice (503) then succeeds is fetched on the third try, after backing off', async () => {
    const dir = folder();
    const [a] = serveFiles(1);
    server.failTimes.set('/files/f0.bin', 2);
    const retries: string[] = [];
    const [result] = await pullFiles([{ url: a }], { cacheDir: join(dir, 'cache'), log: (m) => retries.push(m), ...QUICK });
    expect(result.status).toBe('fetched');
    expect(server.hits('/files/f0.bin')).toBe(3);
    expect(retries).toHaveLength(2);
    expect(retries[0]).toMatch(/try 1 failed \(HTTP 503 Service Unavailable\); again in 0\.01 s/);
    expect(retries[1]).toMatch(/try 2 failed .*again in 0\.02 s/);
  });

  /** One 100 kB file, locked; its next answer is cut half way. */
  async function lockedThenCut() {
    const dir = folder();
    const [a] = serveFiles(1, 100_000);
    const lock = await locked(dir, [a]);
    server.requests.length = 0;
    server.cutOnce.add('/files/f0.bin');
    return { dir, a, lock };
  }

  test('a body cut half way is resumed with an HTTP Range request from where it stopped', async () => {
    const { dir, a, lock } = await lockedThenCut();
    const [result] = await pullFiles([{ url: a, entry: lock.files[a] }], { cacheDir: join(dir, 'cache'), ...QUICK });
    expect(result.status).toBe('fetched');
    expect(server.requests).toHaveLength(2);
    expect(server.requests[0].range).toBeUndefined();
    const resumedAt = Number(/^bytes=(\d+)-$/.exec(server.requests[1].range ?? '')?.[1]);
    expect(resumedAt).toBeGreaterThan(0);
    expect(resumedAt).toBeLessThanOrEqual(50_000);
    expect(readFileSync(result.path!)).toEqual(server.files.get('/files/f0.bin'));
  });

  test('an interrupted pull leaves the partial file, and the next pull resumes it', async () => {
    const { dir, a, lock } = await lockedThenCut();
    const [first] = await pullFiles([{ url: a, entry: lock.files[a] }], { cacheDir: join(dir, 'cache'), tries: 1, ...QUICK });
    expect(first.status).toBe('failed');
    expect(first.error).toMatch(/Could not download .* \(1 try; last error: .*bytes\)/);
    expect(readdirSync(join(dir, 'cache'))).toEqual([`${cacheFileName(a)}.partial`]);
    const [second] = await pullFiles([{ url: a, entry: lock.files[a] }], { cacheDir: join(dir, 'cache'), ...QUICK });
    expect(second.status).toBe('fetched');
    expect(second.resumedFrom).toBeGreaterThan(0);
    expect(server.requests[1].range).toBe(`bytes=${second.resumedFrom}-`);
    expect(readFileSync(second.path!)).toEqual(server.files.get('/files/f0.bin'));
    expect(readdirSync(join(dir, 'cache'))).toEqual([cacheFileName(a)]);
  });

  test('a claim left by a process that is gone is taken over; a live one is waited for', async () => {
    const dir = folder();
    const [a, b] = serveFiles(2);
    const cache = join(dir, 'cache');
    mkdirSync(cache);
    writeFileSync(join(cache, `${cacheFileName(a)}.partial.lock`), '999999999');
    const [taken] = await pullFiles([{ url: a }], { cacheDir: cache, ...QUICK });
    expect(taken.status).toBe('fetched');
    // A live holder (a child process standing for another vitest worker): the pull waits, then uses its file.
    const { spawn } = await import('node:child_process');
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      writeFileSync(join(cache, `${cacheFileName(b)}.partial.lock`), String(holder.pid));
      const pulling = pullFiles([{ url: b }], { cacheDir: cache, ...QUICK });
      await new Promise((done) => setTimeout(done, 300));
      expect(server.hits('/files/f1.bin')).toBe(0);
      writeFileSync(join(cache, cacheFileName(b)), server.files.get('/files/f1.bin')!);
      rmSync(join(cache, `${cacheFileName(b)}.partial.lock`));
      const [waited] = await pulling;
      expect(waited).toMatchObject({ status: 'cached', path: join(cache, cacheFileName(b)) });
      expect(server.hits('/files/f1.bin')).toBe(0);
    } finally {
      holder.kill();
    }
  });

  test('a 404 fails at once (not retried), with the status, leaving nothing in the cache', async () => {
    const dir = folder();
    const url = `${server.base}/files/absent.bin`;
    const [result] = await pullFiles([{ url }], { cacheDir: join(dir, 'cache'), ...QUICK });
    expect(result).toMatchObject({ status: 'failed' });
    expect(result.error).toBe(`Could not download ${url} (1 try; last error: HTTP 404 Not Found)`);
    expect(server.hits('/files/absent.bin')).toBe(1);
    expect(readdirSync(join(dir, 'cache'))).toEqual([]);
  });

  test('--check: ok, missing and changed, without a request', async () => {
    const dir = folder();
    const [a, b, c] = serveFiles(3);
    const lock = await locked(dir, [a, b, c]);
    const cache = join(dir, 'lock-cache');
    writeFileSync(join(cache, cacheFileName(c)), 'tampered');
    rmSync(join(cache, cacheFileName(b)));
    server.requests.length = 0;
    const checks = await checkCache([a, b, c].map((url) => ({ url, entry: lock.files[url] })), cache);
    expect(checks.map((check) => check.status)).toEqual(['ok', 'missing', 'changed']);
    expect(checks[2].error).toContain('the file changed upstream');
    expect(server.requests).toEqual([]);
  });
});

describe('progress', () => {
  const output = (isTTY: boolean) => {
    const written: string[] = [];
    return { written, out: { isTTY, columns: 120, write: (text: string) => written.push(text) } };
  };

  test('a terminal gets one bar redrawn in place with files, bytes, rate and ETA', async () => {
    const dir = folder();
    const urls = serveFiles(5, 20_000);
    const { written, out } = output(true);
    await pullFiles(urls.map((url) => ({ url })), { cacheDir: join(dir, 'cache'), progress: out, ...QUICK });
    expect(written.length).toBeGreaterThan(1);
    expect(written.every((text) => text.startsWith('\r[') || text === '\n')).toBe(true);
    expect(written.at(-2)).toMatch(/^\r\[#+\] pull 5\/5 files · 97\.7 KiB\/97\.7 KiB · [\d.]+ [KMG]?i?B\/s · done in [\d.]+ s/);
  });

  test('elsewhere, plain lines: at most one every 5 s, and the last', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const { written, out } = output(false);
      const bar = new ProgressBar(out, 'pull', 3, 3 * 1024 * 1024);
      for (let i = 0; i < 3; i++) {
        vi.advanceTimersByTime(3000);
        bar.received(1024 * 1024);
        bar.fileDone();
      }
      bar.finish();
      // At 3 s nothing yet, at 6 s one line, at 9 s not again (3 s after it), then the last one.
      expect(written).toHaveLength(2);
      expect(written[0]).toMatch(/^pull 1\/3 files · 2\.0 MiB\/3\.0 MiB · 341\.3 KiB\/s · ETA 3\.0 s\n$/);
      expect(written[1]).toBe('pull 3/3 files · 3.0 MiB/3.0 MiB · 341.3 KiB/s · done in 9.0 s\n');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('files pack / unpack', () => {
  test.each(['files.tar.gz', 'files.tar.zst'])('%s: every locked file and the lock; unpacked into an empty cache, checked, with the lock written', async (name) => {
    const dir = folder();
    const urls = serveFiles(4, 50_000);
    const { lock } = await lockTaskFiles([task(dir, 't', urls)], undefined, { cacheDir: join(dir, 'cache'), ...QUICK });
    const archive = join(dir, name);
    const packed = await packFiles(lock, join(dir, 'cache'), archive);
    expect(packed).toMatchObject({ files: 4, bytes: 200_000 });
    expect(packed.archiveBytes).toBeLessThan(20_000); // repetitive bytes compress well
    const offline = join(dir, 'offline');
    mkdirSync(offline);
    const unpacked = await unpackFiles(archive, join(offline, 'cache'), { path: join(offline, LOCKFILE_NAME) });
    expect(unpacked).toMatchObject({ files: 4, bytes: 200_000, wroteLock: join(offline, LOCKFILE_NAME), differsFromProjectLock: [] });
    expect(readLock(join(offline, LOCKFILE_NAME))).toEqual(lock);
    for (const url of urls) expect(readFileSync(join(offline, 'cache', cacheFileName(url)))).toEqual(readFileSync(join(dir, 'cache', cacheFileName(url))));
    // The unpacked cache serves a run with the server gone: a resolver with the lock finds every file, checked.
    const fetchUrl = createFileResolver({ cacheDir: join(offline, 'cache'), taskDir: dir, lock: readLock(join(offline, LOCKFILE_NAME)) });
    server.requests.length = 0;
    for (const url of urls) expect(existsSync(await fetchUrl(url))).toBe(true);
    expect(server.requests).toEqual([]);
  });

  test('pack refuses when a locked file is missing or changed, naming each; unpack refuses a file that is not the packed one', async () => {
    const dir = folder();
    const [a, b] = serveFiles(2);
    const { lock } = await lockTaskFiles([task(dir, 't', [a, b])], undefined, { cacheDir: join(dir, 'cache'), ...QUICK });
    writeFileSync(join(dir, 'cache', cacheFileName(b)), 'not the locked bytes');
    await expect(packFiles(lock, join(dir, 'cache'), join(dir, 'x.tar.gz'))).rejects.toThrow(/cannot pack: 1 of 2 locked files are not ready[\s\S]*the file changed upstream/);
    expect(existsSync(join(dir, 'x.tar.gz'))).toBe(false);
    // An archive whose lock says otherwise than its file: the file does not land in the cache.
    const forged = Buffer.from(formatLock({ lockfileVersion: 1, files: { [a]: { ...lock.files[a], sha256: '0'.repeat(64) } } }));
    const data = readFileSync(join(dir, 'cache', cacheFileName(a)));
    const entries = [
      { name: LOCKFILE_NAME, size: forged.length, mtime: 0, body: async function* () { yield forged; } },
      { name: `files/${cacheFileName(a)}`, size: data.length, mtime: 0, body: async function* () { yield data; } },
    ];
    await pipeline(Readable.from(tarStream(entries)), createWriteStream(join(dir, 'forged.tar')));
    await expect(unpackFiles(join(dir, 'forged.tar'), join(dir, 'offline-cache'), { path: join(dir, 'offline.lock.json') })).rejects.toThrow(FileChangedError);
    expect(existsSync(join(dir, 'offline-cache', cacheFileName(a)))).toBe(false);
  });

  test('the archive name picks the compression', () => {
    expect(compressionOf('a.tar.zst')).toBe('zstd');
    expect(compressionOf('a.tgz')).toBe('gzip');
    expect(compressionOf('a.tar')).toBe('none');
    expect(() => compressionOf('a.zip')).toThrow(/expected an archive name ending in \.tar\.zst, \.tar\.gz/);
  });
});

describe('runs check files against the lock', () => {
  test('a cached file that is not the locked one fails with FileChangedError (an infrastructure error, also inside a setup step error)', async () => {
    const dir = folder();
    const [a] = serveFiles(1);
    const { lock } = await lockTaskFiles([task(dir, 't', [a])], undefined, { cacheDir: join(dir, 'cache'), ...QUICK });
    writeFileSync(join(dir, 'cache', cacheFileName(a)), 'changed since');
    const fetchUrl = createFileResolver({ cacheDir: join(dir, 'cache'), taskDir: dir, lock });
    const error = await fetchUrl(a).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FileChangedError);
    expect((error as FileChangedError).code).toBe('DESKBENCH_FILE_CHANGED');
    expect((error as Error).message).toMatch(new RegExp(`^${a.replace(/[.?]/g, '\\$&')}: the file changed upstream: its sha256 is ${sha256('changed since')}, the lock says ${lock.files[a].sha256} \\(the cached copy `));
    expect(infrastructureErrorCode(new SetupStepError('config', 0, 'download', 'failed', error))).toBe('DESKBENCH_FILE_CHANGED');
    expect(infrastructureErrorCode(new Error('the agent clicked wrong'))).toBeUndefined();
  });

  test('a downloaded file that is not the locked one fails too; an unlocked URL is not checked', async () => {
    const dir = folder();
    const [a, b] = serveFiles(2);
    const { lock } = await lockTaskFiles([task(dir, 't', [a])], undefined, { cacheDir: join(dir, 'lock-cache'), ...QUICK });
    server.files.set('/files/f0.bin', Buffer.from('moved'));
    const fetchUrl = createFileResolver({ cacheDir: join(dir, 'cache'), taskDir: dir, lock });
    await expect(fetchUrl(a)).rejects.toThrow(/the file changed upstream: .*\(downloaded now from /);
    expect(readFileSync(await fetchUrl(b))).toEqual(server.files.get('/files/f1.bin'));
  });

  test('the mirror: the file is fetched from the rewritten URL and cached under the task URL', async () => {
    const dir = folder();
    server.files.set('/hf/datasets/x/a.txt', Buffer.from('from the mirror'));
    const url = 'https://huggingface.example/datasets/x/a.txt';
    const fetchUrl = createFileResolver({ cacheDir: join(dir, 'cache'), taskDir: dir, mirror: { 'https://huggingface.example/': `${server.base}/hf/` } });
    const path = await fetchUrl(url);
    expect(path).toBe(join(dir, 'cache', cacheFileName(url)));
    expect(readFileSync(path, 'utf8')).toBe('from the mirror');
    // A mirror's password never shows in messages.
    const secret = createFileResolver({ cacheDir: join(dir, 'cache'), taskDir: dir, mirror: { 'https://huggingface.example/': `${server.base.replace('//', '//lab:s3cret@')}/nothing/` } });
    const error = (await secret('https://huggingface.example/datasets/x/b.txt').catch((e: Error) => e)) as Error;
    expect(error.message).toContain(`Could not download ${server.base.replace('//', '//lab:***@')}/nothing/datasets/x/b.txt (1 try; last error: HTTP 404 Not Found)`);
    expect(error.message).not.toContain('s3cret');
  });
});

describe('the mirror option and DESKBENCH_FILES_MIRROR', () => {
  test('the longest matching prefix wins; other URLs are left alone', () => {
    const mirror = { 'https://hf.co/': 'http://m/hf/', 'https://hf.co/datasets/big/': 'http://m/big/' };
    expect(mirrored('https://hf.co/datasets/big/a.bin', mirror)).toBe('http://m/big/a.bin');
    expect(mirrored('https://hf.co/other/a.bin', mirror)).toBe('http://m/hf/other/a.bin');
    expect(mirrored('https://example.com/a.bin', mirror)).toBe('https://example.com/a.bin');
  });

  test('the variable (JSON or prefix=replacement pairs) adds to the option and wins where both name a prefix', () => {
    expect(effectiveMirror({ 'https://a/': 'http://x/', 'https://b/': 'http://y/' }, { DESKBENCH_FILES_MIRROR: 'https://b/=http://z/, https://c/=http://w/' })).toEqual({
      'https://a/': 'http://x/',
      'https://b/': 'http://z/',
      'https://c/': 'http://w/',
    });
    expect(effectiveMirror(undefined, { DESKBENCH_FILES_MIRROR: '{"https://a/": "http://x/"}' })).toEqual({ 'https://a/': 'http://x/' });
    expect(effectiveMirror(undefined, {})).toBeUndefined();
    expect(() => parseMirror('https://a/', 'DESKBENCH_FILES_MIRROR')).toThrow(/DESKBENCH_FILES_MIRROR: "https:\/\/a\/" is not prefix=replacement/);
    expect(() => parseMirror('{"a": 1}', 'DESKBENCH_FILES_MIRROR')).toThrow(/expected an object of prefix → replacement strings/);
  });

  test('a lock that is not a lock names the file and the field', () => {
    expect(() => parseLock('{"lockfileVersion": 1, "files": {"u": {"sha256": "xyz", "size": 1, "tasks": [], "lockedAt": "d"}}}', 'my.lock.json')).toThrow(
      'my.lock.json: at files.u.sha256: a sha256 in lowercase hex (64 characters)',
    );
    expect(() => parseLock('{', 'my.lock.json')).toThrow(/my\.lock\.json: not valid JSON/);
  });
});
