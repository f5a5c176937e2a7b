// `deskbench compare`: two or more runs' results side by side (src/node/report/compare/). Writes compare.json and
// compare.html into --out, prints the comparison. Exit 2 on a usage error or a results folder that cannot be read.
import { join, resolve } from 'node:path';
import { RunReportError } from '../../errors.ts';
import { writeAtomic } from '../../shared/write-atomic.ts';
import { compareRuns } from '../report/compare/compare.ts';
import { formatComparison } from '../report/compare/format.ts';
import { writeComparisonPage } from '../report/compare/html.ts';
import { loadRun } from '../report/compare/load.ts';
import { parseCommandArgs } from './parse-args.ts';

export const COMPARE_USAGE = `  compare <results A> <results B> [more…]
          Compare runs: results folders (or their report.json), a merged shard run's too. A is the baseline; every
          other run is compared with it over the tasks all runs ran from the same task file on the same desktop
          image, without an infrastructure error (the others are listed as not comparable, with the reason). Prints, per domain, per tag and overall,
          each run's overall rate with its 95% bootstrap interval (over tasks, and over the runs within a task with
          repeats) and the difference against A with its interval ("better" or "worse" only when that interval
          excludes 0, over 5 tasks or more), the flips (tasks fixed or broken against A), pass@k and pass^k with
          repeats, and every task's scores by domain. Writes compare.json and compare.html (each task's final
          screens side by side, linked to their trajectory pages) into --out.
          --out dir        where compare.json and compare.html go (default: compare)
          --json           print compare.json instead of the tables
          --resamples n    bootstrap resamples (default 2000)
          --seed n         the bootstrap's seed (default 1): the same runs and seed give the same intervals
          --ignore-image   compare tasks that ran on different desktop images (one agent on two desktops)
          --fail-if-worse  exit 1 when a run is worse than A overall (its difference's interval is below 0)`;

export function compareCommand(args: string[]): number {
  const parsed = parseCommandArgs('compare', COMPARE_USAGE, args, {
    out: { type: 'string', default: 'compare' },
    json: { type: 'boolean', default: false },
    resamples: { type: 'string', default: '2000' },
    seed: { type: 'string', default: '1' },
    'ignore-image': { type: 'boolean', default: false },
    'fail-if-worse': { type: 'boolean', default: false },
  });
  if (!parsed) return 2;
  const { values, positionals } = parsed;
  const resamples = Number(values.resamples);
  const seed = Number(values.seed);
  if (positionals.length < 2 || !(Number.isInteger(resamples) && resamples > 0) || !Number.isInteger(seed)) {
    const problem = positionals.length < 2 ? `expected at least two results folders (got ${positionals.length})` : '--resamples expects a whole number above 0 and --seed a whole number';
    console.error(`deskbench compare: ${problem}\n\n${COMPARE_USAGE}`);
    return 2;
  }
  let comparison;
  try {
    comparison = compareRuns(positionals.map(loadRun), { resamples, seed, ignoreImage: values['ignore-image'] });
  } catch (error) {
    if (!(error instanceof RunReportError)) throw error;
    console.error(`deskbench compare: ${error.message}`);
    return 2;
  }
  const out = resolve(values.out);
  const json = `${JSON.stringify(comparison, null, 2)}\n`;
  const page = writeComparisonPage(comparison, out);
  writeAtomic(join(out, 'compare.json'), json);
  if (values.json) process.stdout.write(json);
  else console.log(`${formatComparison(comparison)}\n\ncompare.json: ${join(out, 'compare.json')}\nhtml:         ${page}`);
  const worse = comparison.total.differences.some((difference) => difference.verdict === 'worse');
  return values['fail-if-worse'] && worse ? 1 : 0;
}
