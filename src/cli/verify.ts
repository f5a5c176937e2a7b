// `deskbench verify`: runs every solved task under the paths with its solution, with noop and (infeasible tasks) with
// fail, and says which tasks are verified (src/solutions/verify.ts). Exit 1 on any failure.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type VerifyAgent, formatVerification, verify } from '../solutions/verify.ts';

export const VERIFY_USAGE = `  verify  Run every task under the paths that has a solution three ways, each on a fresh desktop: replaying the
          solution (must score 1), with the noop agent (must score 0: else the task is a free pass) and, for
          infeasible tasks, with the fail agent (must score 1). Prints a table and "verified N of M solved (K tasks
          in the paths)"; writes report.json and index.html into the results folder. Exits 1 on any failure.
          --json         print one JSON object instead: { tasks, solved, verified, failures: [{ id, agent, score,
                         state, evalError, error }] }
          --solutions dir  a folder of solution files (<dir>/<format>/<task id>.json); repeat for several
                         (default: deskbench's own solutions/)
          --max-workers n  desktops at once (default: vitest's, half the cores)
          --results dir  where results and the reports go (default: results/verify)
          --timeout s    seconds per task run (default: 600)`;

export async function verifyCommand(args: string[], packageRoot: string): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        json: { type: 'boolean', default: false },
        solutions: { type: 'string', multiple: true, default: [] },
        'max-workers': { type: 'string' },
        results: { type: 'string', default: 'results/verify' },
        timeout: { type: 'string', default: '600' },
      },
    });
  } catch (error) {
    console.error(`deskbench verify: ${(error as Error).message}\n\n${VERIFY_USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const maxWorkers = values['max-workers'] === undefined ? undefined : Number(values['max-workers']);
  const timeout = Number(values.timeout);
  if ((maxWorkers !== undefined && !(Number.isInteger(maxWorkers) && maxWorkers > 0)) || !(timeout > 0)) {
    console.error(`deskbench verify: --max-workers expects a positive whole number and --timeout a positive number of seconds\n\n${VERIFY_USAGE}`);
    return 2;
  }
  const solutions = values.solutions.length ? values.solutions : [resolve(packageRoot, 'solutions')];
  const showProgress = (progress: Record<VerifyAgent, { done: number; total: number }>) => {
    const parts = Object.entries(progress).map(([agent, { done, total }]) => `${agent} ${done}/${total}`);
    process.stderr.write(`[deskbench verify] ${parts.join(' · ')}\n`);
  };
  let summary;
  try {
    summary = await verify({ paths: positionals.length ? positionals : ['.'], solutions, resultsDir: values.results, maxWorkers, timeout, onProgress: showProgress });
  } catch (error) {
    console.error(`deskbench verify: ${(error as Error).message}`);
    return 2;
  }
  if (values.json) {
    const { tasks, solved, verified, failures } = summary;
    console.log(JSON.stringify({ tasks, solved, verified, failures }, null, 2));
  } else {
    console.log(formatVerification(summary));
    console.log(`report: ${resolve(values.results, 'report.json')}`);
  }
  return summary.failures.length ? 1 : 0;
}
