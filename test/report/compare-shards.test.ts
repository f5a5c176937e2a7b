// `deskbench compare` on runs merged from shards equals the comparison of the same runs made in one go. The runs are
// real vitest runs of fixtures/compare-project (tests that play tasks without desktops, leaving the meta a task test
// leaves), with the real deskbench reporter: each agent once unsharded, and once as two blob-reporting shards merged
// with vitest --merge-reports, as the README's sharding section does it.
import { cp, mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import type { RunReport } from '../../src/node/report/aggregate.ts';
import type { Comparison } from '../../src/node/report/compare/compare.ts';
import { runChild } from '../helpers/child-run.ts';
import { vitestCli } from '../plugin/run-vitest.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const PROJECT = join(ROOT, 'fixtures/compare-project');

let base: string;

async function run(agent: 'a' | 'b', resultsDir: string, args: string[]) {
  const result = await vitestCli(PROJECT, args, { DESKBENCH_FIXTURE_AGENT: agent, DESKBENCH_RESULTS: resultsDir });
  expect(result.stderr).not.toMatch(/Error: (?!SETUP_ERROR|score)/);
  return result;
}

/** The agent's eight tasks as two shards, each with its own results folder, gathered and merged in `merged`. */
async function shardedRun(agent: 'a' | 'b'): Promise<string> {
  const blobs = join(base, `blobs-${agent}`);
  const merged = join(base, `merged-${agent}`);
  for (const shard of [1, 2]) {
    const results = join(base, `shard-${agent}-${shard}`);
    await run(agent, results, ['run', `--shard=${shard}/2`, '--reporter=blob', `--outputFile=${join(blobs, `blob-${shard}-2.json`)}`]);
    // As CI artifacts gathered in one place: every shard's results folder copied into one.
    await cp(results, merged, { recursive: true });
  }
  await run(agent, merged, [`--merge-reports=${blobs}`]);
  return merged;
}

async function compare(a: string, b: string, out: string): Promise<Comparison> {
  const result = await runChild(process.execPath, [join(ROOT, 'bin/deskbench.js'), 'compare', a, b, '--out', out], { cwd: base });
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout).toContain('deskbench compare: 2 runs, 8 tasks compared');
  return JSON.parse(await readFile(join(out, 'compare.json'), 'utf8'));
}

/** What a comparison says, without where the folders are and when it was made. */
const findings = ({ generatedAt, runs, ...rest }: Comparison) => ({ ...rest, runs: runs.map(({ dir, name, generatedAt: _, ...run }) => run) });

describe('compare over merged shards', () => {
  let unsharded: Comparison;
  let merged: Comparison;
  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'deskbench-compare-shards-'));
    await run('a', join(base, 'a'), ['run']);
    await run('b', join(base, 'b'), ['run']);
    const [mergedA, mergedB] = [await shardedRun('a'), await shardedRun('b')];
    unsharded = await compare(join(base, 'a'), join(base, 'b'), join(base, 'compare-unsharded'));
    merged = await compare(mergedA, mergedB, join(base, 'compare-merged'));
  }, 180_000);

  test('the comparisons are equal: rates, intervals, differences, flips, every task', () => {
    expect(findings(merged)).toEqual(findings(unsharded));
    // And they say what the fixture's scores say: A 5.5/8, B 4/8; t2 and t6 broken by B, t3 fixed.
    expect(unsharded.total.rates.map((r) => r.rate)).toEqual([68.75, 50]);
    expect(unsharded.total.differences[0]).toMatchObject({ difference: -18.75, fixed: 1, broken: 2, verdict: 'no clear difference' });
    expect(unsharded.tasks.filter((task) => task.flips[0]).map((task) => `${task.id} ${task.flips[0]}`)).toEqual(['t6 broken', 't2 broken', 't3 fixed']);
  });

  test('the merged report keeps what the shards recorded: task hashes, agents, and each shard’s command', async () => {
    const report = JSON.parse(await readFile(join(base, 'merged-b', 'report.json'), 'utf8')) as RunReport;
    expect(report.tasks.every((task) => task.taskSha256?.length === 64)).toBe(true);
    expect(report.run?.agents).toEqual([{ name: 'b', module: 'fixture:b' }]);
    expect(Object.keys(report.run!.taskFiles)).toHaveLength(8);
    expect(report.run?.shards?.map((shard) => [shard.shard, shard.command.args[1]])).toEqual([
      ['1/2', '--shard=1/2'],
      ['2/2', '--shard=2/2'],
    ]);
    expect(report.run?.command.args[0]).toMatch(/^--merge-reports=/);
    expect((await readdir(join(base, 'merged-b'))).filter((name) => name.startsWith('report')).sort()).toEqual(['report-shard-1-of-2.json', 'report-shard-2-of-2.json', 'report.json']);
  });
});
