// `deskbench verify`: runs every solved task under the paths with its solutions, with noop and (infeasible tasks) with
// fail, and says which tasks are verified (src/node/verify/verify.ts). Exit 1 on any failure or error.
import { resolve } from 'node:path';
import { desktopRunOptions, desktopRunValues, parseCommandArgs } from './parse-args.ts';
import type { VerifyError } from '../../contract/verification.ts';
import { formatVerification, formatVerifyError, verify } from '../verify/verify.ts';

export const VERIFY_USAGE = `  verify  Run every task under the paths that has a solution several ways, each on a fresh desktop: replaying the
          solution (must score 1) and each second solution (<id>.gui.json: scripted.gui, must score 1), with the
          noop agent (must score 0: else the task is a free pass) and, for infeasible tasks, with the fail agent
          (must score 1). Prints a table and "verified N of M solved (K tasks in the paths)"; writes report.json
          and index.html into the results folder. Tasks that solutions/ marks gold_only (their checker wants text
          only a gold file holds) are listed and never count. Exits 1 on any failure, flaky task or error: a path
          that names nothing (then nothing runs), an invalid task file, a broken solution file, or a solution
          whose task is absent from the corpus the paths are in.
          --json         print one JSON object instead: { command, tasks, solved, verified, repeats, freePasses,
                         flaky, goldOnly, errors: [{ code, file, path, message }], failures: [{ id, agent, variant,
                         repeat, score, state, evalError, error }], rows, environment: { date, commit, image,
                         imageId, imageBuildHash, treeBuildHash, cores }, durationSeconds }
          --repeats n    run each solution, noop and fail n times (default 1): per task its pass rate and time;
                         a task that scores as expected in some runs and not in others is flaky, and fails verify
          --solutions dir  a folder of solution files (<dir>/<format>/<task id>.json); repeat for several
                         (default: deskbench's own solutions/)
          --max-workers n  desktops at once (default: vitest's, half the cores)
          --warm n       desktops started ahead of the tasks (default: one per worker); 0 starts each task's
                         desktop when it asks, so at most --max-workers desktops run at once
          --results dir  where results and the reports go (default: results/verify)
          --timeout s    seconds per task run (default: 600)`;

export async function verifyCommand(args: string[], packageRoot: string): Promise<number> {
  const parsed = parseCommandArgs('verify', VERIFY_USAGE, args, {
    ...desktopRunOptions({ results: 'results/verify', timeout: '600' }),
    solutions: { type: 'string', multiple: true, default: [] },
    repeats: { type: 'string', default: '1' },
  });
  if (!parsed) return 2;
  const { values, positionals } = parsed;
  const run = desktopRunValues(values);
  const repeats = Number(values.repeats);
  if (typeof run === 'string' || !(Number.isInteger(repeats) && repeats > 0)) {
    console.error(`deskbench verify: ${typeof run === 'string' ? run : '--repeats expects a positive whole number'}\n\n${VERIFY_USAGE}`);
    return 2;
  }
  const { maxWorkers, warm, timeout } = run;
  const solutions = values.solutions.length ? values.solutions : [resolve(packageRoot, 'solutions')];
  const showProgress = (progress: Record<string, { done: number; total: number }>) => {
    const parts = Object.entries(progress).map(([run, { done, total }]) => `${run} ${done}/${total}`);
    process.stderr.write(`[deskbench verify] ${parts.join(' · ')}\n`);
  };
  const showErrors = (errors: VerifyError[]) => {
    for (const error of errors) process.stderr.write(`[deskbench verify] ${formatVerifyError(error)}\n`);
  };
  let summary;
  try {
    summary = await verify({
      paths: positionals.length ? positionals : ['.'],
      solutions,
      resultsDir: values.results,
      maxWorkers,
      warm,
      timeout,
      repeats,
      packageRoot,
      onErrors: showErrors,
      onProgress: showProgress,
    });
  } catch (error) {
    console.error(`deskbench verify: ${(error as Error).message}`);
    return 2;
  }
  if (values.json) {
    // The command as typed: scripts/readme-verify-figures.ts quotes it beside the figures.
    console.log(JSON.stringify({ command: ['deskbench', 'verify', ...args], ...summary }, null, 2));
  } else {
    console.log(formatVerification(summary));
    console.log(`report: ${resolve(values.results, 'report.json')}`);
  }
  return summary.failures.length || summary.errors.length ? 1 : 0;
}
