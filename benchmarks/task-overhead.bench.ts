// Per-task overhead of the runner on the writer example: desktop start → ready, setup (download + open the .docx in
// Writer), and evaluation (postconfig save + compare_docx_files). Agent time is excluded (the noop agent answers at
// once). Target: median ≤ 5 s. Run: `vitest bench --run --project 'unit*' benchmarks/task-overhead.bench.ts`.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { noopAgent } from '../src/agent/agents/noop.ts';
import { runTask } from '../src/worker/run-task.ts';
import { readTaskFile } from '../src/adapters/load.ts';

const WRITER = resolve(import.meta.dirname, '../examples/osworld/libreoffice_writer/334fd87e-873f-4755-8a9c-14c1f40d3971.json');
const RUNS = 5;
const overheads: number[] = [];
const phases: Record<string, number[]> = {};
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

test(`writer example overhead over ${RUNS} runs`, async () => {
  const parsed = readTaskFile(WRITER, { explicit: true });
  if (parsed.kind !== 'task') throw new Error(`${WRITER} did not load`);
  const resultsDir = await mkdtemp(join(tmpdir(), 'deskbench-overhead-'));
  for (let i = 0; i < RUNS; i++) {
    const outcome = await runTask(parsed.task, {
      agent: noopAgent(),
      maxSteps: 1,
      observationType: 'screenshot',
      pauseAfterAction: 0, settleAfterSetup: 0, settleBeforeEvaluation: 0,
      passThreshold: 1,
      resultsDir: join(resultsDir, String(i)),
      cacheDir: join(resultsDir, 'cache'),
      desktop: { provider: 'docker' },
      record: false,
      resume: false,
    });
    expect(outcome.status).toBe('scored'); // the noop agent scores 0 here, but the whole pipeline ran
    const { desktop = 0, setup = 0, evaluation = 0 } = outcome.timings;
    overheads.push(desktop + setup + evaluation);
    for (const [phase, ms] of Object.entries(outcome.timings)) (phases[phase] ??= []).push(ms);
  }
}, 600_000);

afterAll(() => {
  const lines = Object.entries(phases).map(([phase, ms]) => `  ${phase.padEnd(11)} median ${median(ms).toFixed(0)} ms`);
  console.log(`\nwriter example, ${RUNS} runs — overhead (ready + setup + evaluation) median ${median(overheads).toFixed(0)} ms (target ≤ 5000)\n${lines.join('\n')}`);
});
