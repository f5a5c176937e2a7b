// Tasks whose worker died (killed, crashed) never wrote their verdict: their summary.json still says RUNNING. At the
// end of a run the reporter (and verify) rewrite those of their own run as ABORTED.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { type TaskSummary, readSummary } from '../../contract/summary.ts';
import { appendLine, writeAtomic } from '../../shared/write-atomic.ts';

/**
 * Summaries of run `runId` still saying RUNNING under `resultsDir` — their worker died before the task ended — are
 * rewritten as ABORTED with `reason`. Returns the rewritten summaries.
 */
export function finalizeRunningSummaries(resultsDir: string, runId: string, reason: string): TaskSummary[] {
  const finalized: TaskSummary[] = [];
  const visit = (dir: string) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // no results yet, or a folder removed meanwhile
    }
    if (entries.some((entry) => entry.isFile() && entry.name === 'summary.json')) {
      const summary = readSummary(dir);
      if (summary?.results.state !== 'RUNNING' || summary.results.run_id !== runId) return;
      const end = Date.now() / 1000;
      const timing = { ...summary.results.total_timing, end_time: end, duration: Math.round((end - summary.results.total_timing.start_time) * 100) / 100 };
      const results = { ...summary.results, state: 'ABORTED' as const, output: reason, total_timing: timing };
      writeAtomic(join(dir, 'summary.json'), `${JSON.stringify({ ...summary, results }, null, 2)}\n`);
      appendLine(join(dir, 'traj.jsonl'), JSON.stringify({ Error: reason }));
      finalized.push({ ...summary, results });
      return; // a task's folder: nothing below it is another task
    }
    for (const entry of entries) if (entry.isDirectory()) visit(join(dir, entry.name));
  };
  visit(resultsDir);
  return finalized;
}
