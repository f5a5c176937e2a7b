// How long a task waits for its desktop, with the run's pool of warm desktops (desktop.warm, default one per worker)
// and without it (desktop.warm: 0, each task starts its own). Real runs of the vitest CLI on the warm-pool fixture
// project: three small tasks in one worker, whose agent thinks DESKBENCH_THINK_MS (default 10 s, far less than a model
// takes) before answering DONE; DESKBENCH_BENCH_RUNS runs per mode (default 2). The wait is each task's `desktop`
// phase in its summary.json (ask → ready desktop). Target: a task waits ≤ 1 s. The pool fills on the first request,
// so the first task of a run waits a full start: the figures say so apart.
// Run: `vitest bench --run --project 'unit*' benchmarks/warm-pool.bench.ts` (bench mode names the project `unit (bench)`).
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { readSummaries, vitestCli } from '../test/plugin/run-vitest.ts';

const PROJECT = resolve(import.meta.dirname, '../fixtures/warm-pool-project');
const RUNS = Number(process.env.DESKBENCH_BENCH_RUNS ?? 2);
const THINK_MS = process.env.DESKBENCH_THINK_MS ?? '10000';
const waits: Record<string, { first: number[]; later: number[] }> = {};
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

for (const [mode, warm] of [['with the pool', undefined], ['without (warm: 0)', '0']] as const) {
  test(`wait for a desktop, ${mode}, ${RUNS} runs of 3 tasks`, async () => {
    const found = (waits[mode] = { first: [] as number[], later: [] as number[] });
    for (let i = 0; i < RUNS; i++) {
      const dir = await mkdtemp(join(tmpdir(), 'deskbench-warm-bench-'));
      const run = await vitestCli(PROJECT, ['run'], {
        DESKBENCH_RUN_ID: `bench-warm-${process.pid}-${i}`,
        DESKBENCH_RESULTS: dir,
        DESKBENCH_THINK_MS: THINK_MS,
        ...(warm === undefined ? {} : { DESKBENCH_WARM: warm }),
      });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      const tasks = (await readSummaries(dir)).map(({ results }) => results.total_timing).sort((a, b) => a.start_time - b.start_time);
      expect(tasks).toHaveLength(3);
      found.first.push(tasks[0].phases_ms.desktop);
      found.later.push(...tasks.slice(1).map((timing) => timing.phases_ms.desktop));
    }
  }, 900_000);
}

afterAll(() => {
  const lines = Object.entries(waits).map(([mode, { first, later }]) => {
    const all = [...first, ...later];
    return `  ${mode.padEnd(18)} median ${median(all).toFixed(0)} ms over ${all.length} tasks; first task of a run ${median(first).toFixed(0)} ms, later tasks ${median(later).toFixed(0)} ms (max ${Math.max(...later).toFixed(0)})`;
  });
  console.log(`\nwait of a task for its desktop (agent thinks ${THINK_MS} ms per task, one worker)\n${lines.join('\n')}`);
});
