import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { getCacheFile, getCloudFile } from '../../../src/eval/getters/file.ts';
import { xlsxLastRow } from '../../../src/eval/formats/xlsx/sheet-data.ts';
import { getList, getLocalFile } from '../../../src/adapters/spider2v/getters.ts';
import { strftime } from '../../../src/python/datetime.ts';
import { pythonFloatRepr } from '../../../src/python/repr.ts';
import { makeEnv } from '../engine-helpers.ts';

const fixtures = join(import.meta.dirname, 'fixtures');

describe('cache_file and cloud_file', () => {
  test('cache_file: the path when the file is in the cache, else null', async () => {
    const env = makeEnv();
    writeFileSync(join(env.cacheDir, 'out.txt'), 'x');
    expect(await getCacheFile(env, { path: 'out.txt' })).toBe(join(env.cacheDir, 'out.txt'));
    expect(await getCacheFile(env, { path: 'missing.txt' })).toBeNull();
  });

  test('cloud_file downloads into cacheDir/dest, and not again when it is already there', async () => {
    const env = makeEnv();
    const source = join(env.taskDir, 'gold.bin');
    writeFileSync(source, 'v1');
    let fetched = 0;
    const counting = { ...env, fetchUrl: async () => {
      fetched++;
      return source;
    } };
    const path = await getCloudFile(counting, { path: 'https://x/gold.bin', dest: 'gold.bin' });
    expect(path).toBe(join(env.cacheDir, 'gold.bin'));
    writeFileSync(source, 'v2');
    await getCloudFile(counting, { path: 'https://x/gold.bin', dest: 'gold.bin' });
    expect([fetched, readFileSync(path as string, 'utf8')]).toEqual([1, 'v1']);
  });

  test('a bad config is a clear error naming the getter and key', async () => {
    await expect(async () => getCloudFile(makeEnv(), { path: 'https://x' })).rejects.toThrow('cloud_file: config.dest must be a string (got nothing)');
    await expect(async () => getCloudFile(makeEnv(), { multi: true, path: 'a', dest: ['b'] })).rejects.toThrow('with multi, config.path and config.dest must be lists');
  });
});

describe('local_file and list (Spider2-V)', () => {
  test('copies a task file into the cache; a folder recursively; Spider2-V repository-root paths resolve to the task folder', async () => {
    const env = makeEnv();
    writeFileSync(join(env.taskDir, 'gold.csv'), 'a,b\n');
    mkdirSync(join(env.taskDir, 'project', 'models'), { recursive: true });
    writeFileSync(join(env.taskDir, 'project', 'models', 'm.sql'), 'select 1');
    expect(await getLocalFile(env, { path: 'gold.csv' })).toBe(join(env.cacheDir, 'gold.csv'));
    expect(await getLocalFile(env, { path: 'evaluation_examples/examples/dbt/1234/gold.csv', dest: 'g.csv' })).toBe(join(env.cacheDir, 'g.csv'));
    const folder = await getLocalFile(env, { path: 'project' });
    expect(readFileSync(join(folder as string, 'models', 'm.sql'), 'utf8')).toBe('select 1');
    expect(await getLocalFile(env, { path: 'nope.csv' })).toBeNull();
    expect(existsSync(join(env.cacheDir, 'nope.csv'))).toBe(false);
  });

  test('hostile paths: nothing outside the task folder is read, nothing outside the cache written', async () => {
    const env = makeEnv();
    const outside = mkdtempSync(join(tmpdir(), 'deskbench-outside-'));
    writeFileSync(join(outside, 'secret'), 'host secret');
    writeFileSync(join(env.taskDir, 'gold.csv'), 'a,b\n');
    await expect(getLocalFile(env, { path: join(outside, 'secret') })).rejects.toThrow(/config\.path ".*secret" is an absolute path outside its folder; it must stay inside /);
    await expect(getLocalFile(env, { path: '../../../../../../../../etc/passwd' })).rejects.toThrow(/config\.path .* leads outside its folder/);
    await expect(getLocalFile(env, { path: 'gold.csv', dest: join(outside, 'copied') })).rejects.toThrow(/config\.dest .* is an absolute path outside its folder/);
    // A folder of the task holding a link to a host file: refused, rather than copied as a link metrics would follow.
    mkdirSync(join(env.taskDir, 'project'));
    symlinkSync(join(outside, 'secret'), join(env.taskDir, 'project', 'link'));
    await expect(getLocalFile(env, { path: 'project' })).rejects.toThrow(/config\.path \(a link inside it\) ".*link" goes through a symbolic link/);
    expect(() => getCacheFile(env, { path: join(outside, 'secret') })).toThrow(/config\.path .* outside its folder/);
    expect(readdirSync(outside)).toEqual(['secret']);
  });

  test('list returns the literal list', async () => {
    expect(await getList(makeEnv(), { type: 'list', list: ['a', 2] })).toEqual(['a', 2]);
  });
});

describe('content_from_vm_file xlsx last_row', () => {
  // The fixture is LibreOffice's xlsx of: name,age,score,note / Ann,30,1.5,x / Cy,,2,z / Bob,41,,y
  // pandas: age has a gap → float64 → "41.0"; score has a gap → "nan"; strings print as they are.
  test("the last data row as pandas' str() of each cell", async () => {
    expect(await xlsxLastRow(join(fixtures, 'last-row.xlsx'))).toEqual(['Bob', '41.0', 'nan', 'y']);
  });
});

describe('Python formatting helpers', () => {
  test('str(float)', () => {
    expect([3, 0.1, 1e16, 1.5e-5, 123456.789, Number.NaN].map(pythonFloatRepr))
      .toEqual(['3.0', '0.1', '1e+16', '1.5e-05', '123456.789', 'nan']);
  });

  test('strftime', () => {
    expect(strftime('%Y%m%d_%H%M%S %a %b %j %%', new Date(2024, 4, 6, 7, 8, 9))).toBe('20240506_070809 Mon May 127 %');
  });
});
