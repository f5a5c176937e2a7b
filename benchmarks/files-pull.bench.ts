// `deskbench files pull` against curl fetching the same files one after another: 200 files of 1 MiB from a loopback
// server (test/helpers/file-server.ts) that answers each request after 50 ms, as a distant dataset host would. Each
// round pulls into an empty cache, each file checked against its lock entry (sha256), 8 at a time (the default); curl
// runs once per file, in turn, as a download loop in a shell script would. Rounds alternate, DESKBENCH_BENCH_RUNS
// each (default 3). Target: pull takes at most half of curl's time (medians).
// Run: `vitest bench --run --project 'unit*' benchmarks/files-pull.bench.ts` (npm run bench runs every benchmark).
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, test } from 'vitest';
import { DEFAULT_CONCURRENCY, pullFiles } from '../src/files/pull.ts';
import { sha256, startFileServer } from '../test/helpers/file-server.ts';

const FILES = 200;
const SIZE = 1024 * 1024;
const LATENCY_MS = 50;
const RUNS = Number(process.env.DESKBENCH_BENCH_RUNS ?? 3);
const times: Record<'pull' | 'curl', number[]> = { pull: [], curl: [] };
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

test(`${FILES} files of 1 MiB, ${LATENCY_MS} ms before each answer: files pull vs curl one after another, ${RUNS} rounds`, async () => {
  const server = await startFileServer();
  try {
    server.delayMs = LATENCY_MS;
    const items = Array.from({ length: FILES }, (_, i) => {
      const data = Buffer.alloc(SIZE, `bench file ${i} `);
      server.files.set(`/bench/f${i}.bin`, data);
      const url = `${server.base}/bench/f${i}.bin`;
      return { url, entry: { sha256: sha256(data), size: SIZE, tasks: ['bench'], lockedAt: '2026-01-01T00:00:00.000Z' } };
    });
    for (let round = 0; round < RUNS; round++) {
      const dir = await mkdtemp(join(tmpdir(), 'deskbench-pull-bench-'));
      let start = performance.now();
      const results = await pullFiles(items, { cacheDir: join(dir, 'pull') });
      times.pull.push(performance.now() - start);
      expect(results.filter((result) => result.status !== 'fetched')).toEqual([]);
      start = performance.now();
      for (const [i, { url }] of items.entries()) await promisify(execFile)('curl', ['--silent', '--fail', '--output', join(dir, `curl-${i}.bin`), url]);
      times.curl.push(performance.now() - start);
      await rm(dir, { recursive: true, force: true });
    }
  } finally {
    await server.close();
  }
  expect(median(times.pull) / median(times.curl)).toBeLessThanOrEqual(0.5);
}, 900_000);

afterAll(() => {
  if (!times.pull.length || !times.curl.length) return;
  const pull = median(times.pull);
  const curl = median(times.curl);
  const rate = (ms: number) => `${((FILES * SIZE) / 1024 / 1024 / (ms / 1000)).toFixed(0)} MiB/s`;
  console.log(
    `\n${FILES} × 1 MiB, ${LATENCY_MS} ms latency, ${RUNS} rounds (medians)\n` +
      `  files pull (${DEFAULT_CONCURRENCY} at once, sha256 checked) ${(pull / 1000).toFixed(2)} s (${rate(pull)})\n` +
      `  curl, one after another           ${(curl / 1000).toFixed(2)} s (${rate(curl)})\n` +
      `  ratio pull / curl ${(pull / curl).toFixed(3)} (target ≤ 0.5)`,
  );
});
