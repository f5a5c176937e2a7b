// The host-side file resolver: a real HTTP server on 127.0.0.1, real files, real cache folders.
import { createServer, type Server } from 'node:http';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheFileName, uuid5Url } from '../../src/files/cache.ts';
import { createFileResolver } from '../../src/setup/downloads.ts';

let server: Server;
let base: string;
const hits = new Map<string, number>();

beforeAll(async () => {
  server = createServer((request, response) => {
    const path = request.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    if (path.startsWith('/missing')) {
      response.writeHead(404).end('not here');
      return;
    }
    response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(`bytes of ${path}`);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  base = `http://127.0.0.1:${address.port}`;
});

afterAll(() => new Promise<void>((done) => server.close(() => done())));

function folders() {
  const root = mkdtempSync(join(tmpdir(), 'deskbench-downloads-'));
  const cacheDir = join(root, 'cache');
  const taskDir = join(root, 'task');
  mkdirSync(taskDir, { recursive: true });
  return { root, cacheDir, taskDir };
}

describe('uuid5Url', () => {
  it("equals Python's uuid.uuid5(uuid.NAMESPACE_URL, url)", () => {
    // python3 -c "import uuid;print(uuid.uuid5(uuid.NAMESPACE_URL,'https://example.com/a b/file.xlsx'))"
    expect(uuid5Url('https://example.com/a b/file.xlsx')).toBe('5b710abf-69bb-50b8-b4d0-c4d57fff39cb');
  });

  it('names cache files <uuid5>_<file name>', () => {
    expect(cacheFileName('https://example.com/a%20b/file.xlsx')).toBe(`${uuid5Url('https://example.com/a%20b/file.xlsx')}_file.xlsx`);
  });
});

describe('createFileResolver', () => {
  it('downloads once and serves the second call from the cache folder, across resolvers', async () => {
    const { cacheDir, taskDir } = folders();
    const url = `${base}/files/report.xlsx`;
    const first = await createFileResolver({ cacheDir, taskDir })(url);
    expect(readFileSync(first, 'utf8')).toBe('bytes of /files/report.xlsx');
    expect(first).toBe(join(cacheDir, cacheFileName(url)));
    const second = await createFileResolver({ cacheDir, taskDir: join(taskDir, 'other') })(url);
    expect(second).toBe(first);
    expect(hits.get('/files/report.xlsx')).toBe(1);
    expect(readdirSync(cacheDir)).toEqual([cacheFileName(url)]);
  });

  it('shares one download between concurrent calls for the same URL', async () => {
    const { cacheDir, taskDir } = folders();
    const fetchUrl = createFileResolver({ cacheDir, taskDir });
    const [a, b] = await Promise.all([fetchUrl(`${base}/together.bin`), fetchUrl(`${base}/together.bin`)]);
    expect(a).toBe(b);
    expect(hits.get('/together.bin')).toBe(1);
  });

  it("uses a file in OSWorld's cache naming (<uuid5>_<desktop file name>) without downloading", async () => {
    const { cacheDir, taskDir } = folders();
    const url = `${base}/never-fetched/data.csv`;
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(join(cacheDir, `${uuid5Url(url)}_renamed.csv`), 'from osworld cache');
    const path = await createFileResolver({ cacheDir, taskDir })(url);
    expect(readFileSync(path, 'utf8')).toBe('from osworld cache');
    expect(hits.get('/never-fetched/data.csv')).toBeUndefined();
  });

  it('resolves file: URLs and plain paths against the task folder', async () => {
    const { cacheDir, taskDir } = folders();
    writeFileSync(join(taskDir, 'input.txt'), 'local');
    const fetchUrl = createFileResolver({ cacheDir, taskDir });
    expect(await fetchUrl('input.txt')).toBe(join(taskDir, 'input.txt'));
    expect(await fetchUrl('file:input.txt')).toBe(join(taskDir, 'input.txt'));
    expect(await fetchUrl(pathToFileURL(join(taskDir, 'input.txt')).href)).toBe(join(taskDir, 'input.txt'));
    await expect(fetchUrl('file:absent.txt')).rejects.toThrow(/file:absent\.txt: no such file .*absent\.txt/);
  });

  it('refuses file: URLs and plain paths outside the task folder, naming the folder', async () => {
    const { root, cacheDir, taskDir } = folders();
    writeFileSync(join(root, 'secret.txt'), 'host secret');
    const fetchUrl = createFileResolver({ cacheDir, taskDir });
    for (const url of ['file:///etc/passwd', '/etc/passwd', '../secret.txt', 'file:../secret.txt', pathToFileURL(join(root, 'secret.txt')).href]) {
      await expect(fetchUrl(url), url).rejects.toThrow(new RegExp(`(the local path|the file URL ".*", path) ".*" (is an absolute path outside|leads outside) its folder; it must stay inside ${taskDir}`));
    }
    symlinkSync(join(root, 'secret.txt'), join(taskDir, 'link.txt'));
    await expect(fetchUrl('link.txt')).rejects.toThrow(/goes through a symbolic link/);
  });

  it("also accepts local paths inside the files option's folder (the user's own files), and nothing beside it", async () => {
    const { root, cacheDir, taskDir } = folders();
    mkdirSync(join(root, 'inputs', 'calc'), { recursive: true });
    writeFileSync(join(root, 'inputs', 'calc', 'sales.xlsx'), 'xlsx');
    writeFileSync(join(root, 'secret.txt'), 'host secret');
    const fetchUrl = createFileResolver({ cacheDir, taskDir, files: join(root, 'inputs') });
    expect(await fetchUrl('../inputs/calc/sales.xlsx')).toBe(join(root, 'inputs', 'calc', 'sales.xlsx'));
    expect(await fetchUrl(pathToFileURL(join(root, 'inputs', 'calc', 'sales.xlsx')).href)).toBe(join(root, 'inputs', 'calc', 'sales.xlsx'));
    await expect(fetchUrl('../secret.txt')).rejects.toThrow(/leads outside its folder/);
    await expect(fetchUrl('../inputs/../secret.txt')).rejects.toThrow(/leads outside its folder/);
  });

  it('takes a mapped URL from the mapping without touching the network', async () => {
    const { root, cacheDir, taskDir } = folders();
    const mapped = join(root, 'mine.xlsx');
    writeFileSync(mapped, 'mapped bytes');
    const url = `${base}/mapped/report.xlsx`;
    const path = await createFileResolver({ cacheDir, taskDir, files: { [url]: mapped } })(url);
    expect(readFileSync(path, 'utf8')).toBe('mapped bytes');
    expect(hits.get('/mapped/report.xlsx')).toBeUndefined();
    await expect(createFileResolver({ cacheDir, taskDir, files: { [url]: join(root, 'gone') } })(url)).rejects.toThrow(
      /maps .*mapped\/report\.xlsx to .*gone, which is not a file/,
    );
  });

  it('finds a URL in a folder by file name, preferring the file whose folders match the URL path', async () => {
    const { root, cacheDir, taskDir } = folders();
    const folder = join(root, 'offline');
    mkdirSync(join(folder, 'chrome', 'abc'), { recursive: true });
    mkdirSync(join(folder, 'gimp', 'xyz'), { recursive: true });
    writeFileSync(join(folder, 'chrome', 'abc', 'page.html'), 'chrome copy');
    writeFileSync(join(folder, 'gimp', 'xyz', 'page.html'), 'gimp copy');
    writeFileSync(join(folder, 'gimp', 'photo.png'), 'png');
    const fetchUrl = createFileResolver({ cacheDir, taskDir, files: folder });
    expect(readFileSync(await fetchUrl(`${base}/resolve/main/gimp/photo.png`), 'utf8')).toBe('png');
    expect(readFileSync(await fetchUrl(`${base}/resolve/main/gimp/xyz/page.html`), 'utf8')).toBe('gimp copy');
    expect(hits.get('/resolve/main/gimp/photo.png')).toBeUndefined();
    expect(hits.get('/resolve/main/gimp/xyz/page.html')).toBeUndefined();
    await expect(fetchUrl(`${base}/elsewhere/page.html`)).rejects.toThrow(/several files .* could be .*elsewhere\/page\.html/);
  });

  it('fails on an unreachable URL after 3 tries, naming the URL and the files option', async () => {
    const { cacheDir, taskDir } = folders();
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((done) => closed.close(() => done()));
    const url = `http://127.0.0.1:${port}/data/table.csv`;
    const logs: string[] = [];
    // A short back-off: the tries are what this test is about, not the waits between them (1 s, then 2 s).
    const error = await createFileResolver({ cacheDir, taskDir, backoffMs: 10, log: (m) => logs.push(m) })(url).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain(`Could not download ${url} (3 tries`);
    expect((error as Error).message).toContain('ECONNREFUSED');
    expect((error as Error).message).toContain('files option: a folder containing "table.csv"');
    expect((error as Error).message).toContain(`{ "${url}": "/path/to/table.csv" }`);
    // A line before each retry (with the back-off), and one when it gives up.
    expect(logs.filter((line) => line.includes('failed (try'))).toHaveLength(2);
    expect(logs.at(-1)).toContain('(3 tries; last error');
  });

  it('does not retry an HTTP 404, and says the folder lacks the file when a folder was given', async () => {
    const { root, cacheDir, taskDir } = folders();
    mkdirSync(join(root, 'empty'));
    const url = `${base}/missing/sheet.ods`;
    await expect(createFileResolver({ cacheDir, taskDir, files: join(root, 'empty') })(url)).rejects.toThrow(
      /HTTP 404.*not in the folder given by the files option .*empty.*put "sheet\.ods" there/,
    );
    expect(hits.get('/missing/sheet.ods')).toBe(1);
    expect(readdirSync(cacheDir)).toEqual([]);
  });
});
