// `deskbench replay`: recorded trajectories of real agents, replayed on this desktop with the noop agent beside them
// (src/node/replay/). Exit 1 when a trajectory that scored 1 where it was recorded does not score 1 here, or noop passes.
import { resolve } from 'node:path';
import { desktopRunOptions, desktopRunValues, parseCommandArgs } from './parse-args.ts';
import { type ReplayReport, type ReplayRow, replay } from '../replay/replay.ts';
import { formatVerifyError } from '../verify/verify.ts';

export const REPLAY_USAGE = `  replay  Replay trajectories that agents recorded on OSWorld's VM, action by action on a fresh desktop each, with a
          pause after each action standing for the model's turn, and run the noop agent on each task: a trajectory
          that scored 1 there must score 1 here, and noop 0 (src/node/replay/README.md). Paths: trajectory.json or
          traj.jsonl files (OSWorld's results layout <domain>/<task id>/traj.jsonl), or folders of them.
          Exits 1 when one does not, or a trajectory cannot be read or its task is not in the corpus.
          --corpus dir   OSWorld's evaluation_examples/examples (default: ../shared/corpora/osworld/examples)
          --pause s      seconds after each action (default 3)
          --max-steps n  steps a trajectory may take (default 100)
          --max-workers n, --warm n, --timeout s (default 1800), --results dir (default results/replay), --json
                         as for verify`;

const status = (row: ReplayRow) => {
  const expected = row.recordedScore ?? 1;
  if (row.score !== expected) return 'FAILS';
  return row.noopScore ? 'noop passes' : 'ok';
};

function formatReplay(report: ReplayReport): string {
  const lines = ['| task | trajectory | steps | there | here | noop | |', '| --- | --- | --- | --- | --- | --- | --- |'];
  for (const row of report.rows) {
    lines.push(`| ${row.domain}/${row.taskId} | ${row.variant} | ${row.steps} | ${row.recordedScore ?? '?'} | ${row.score ?? 'broke'} | ${row.noopScore ?? 'broke'} | ${status(row)} |`);
  }
  const ok = report.rows.filter((row) => status(row) === 'ok').length;
  lines.push('', `${ok} of ${report.rows.length} trajectories score here as where they were recorded, with noop 0`);
  for (const error of report.errors) lines.push(formatVerifyError(error));
  return lines.join('\n');
}

export async function replayCommand(args: string[], packageRoot: string): Promise<number> {
  const parsed = parseCommandArgs('replay', REPLAY_USAGE, args, {
    ...desktopRunOptions({ results: 'results/replay', timeout: '1800' }),
    corpus: { type: 'string', default: resolve(packageRoot, '..', 'shared', 'corpora', 'osworld', 'examples') },
    pause: { type: 'string', default: '3' },
    'max-steps': { type: 'string', default: '100' },
  });
  if (!parsed) return 2;
  const { values, positionals } = parsed;
  const run = desktopRunValues(values);
  const pause = Number(values.pause);
  const maxSteps = Number(values['max-steps']);
  const problem = typeof run === 'string' ? run
    : !positionals.length ? 'give trajectory files or folders'
    : !(pause >= 0) ? '--pause expects a number of seconds, 0 or more'
    : !(Number.isInteger(maxSteps) && maxSteps > 0) ? '--max-steps expects a positive whole number' : undefined;
  if (problem || typeof run === 'string') {
    console.error(`deskbench replay: ${problem}\n\n${REPLAY_USAGE}`);
    return 2;
  }
  let report: ReplayReport;
  try {
    report = await replay({
      trajectories: positionals,
      corpus: values.corpus,
      resultsDir: values.results,
      pause,
      maxSteps,
      ...run,
      packageRoot,
      onProgress: (progress) => {
        const parts = Object.entries(progress).map(([run, { done, total }]) => `${run} ${done}/${total}`);
        process.stderr.write(`[deskbench replay] ${parts.join(' · ')}\n`);
      },
    });
  } catch (error) {
    console.error(`deskbench replay: ${(error as Error).message}`);
    return 2;
  }
  if (values.json) {
    const { environment, durationSeconds } = report.verification;
    console.log(JSON.stringify({ command: ['deskbench', 'replay', ...args], rows: report.rows, errors: report.errors, environment, durationSeconds }, null, 2));
  }
  else console.log(formatReplay(report));
  return report.errors.length || report.rows.some((row) => status(row) !== 'ok') ? 1 : 0;
}
