// What a failing task test says beyond its score: for each metric that ran, what it compared (the getters' outputs)
// and, where the metric can tell, the first difference (matchers/explain.ts) — so the answer to "why did this fail?"
// is in the test's error, where CI reporters show it, not only in summary.json.
import type { EvalDetails } from '../eval/engine.ts';
import { explainScore } from '../matchers/explain.ts';

/** Lines describing the evaluation, one block per metric that did not reach 1; empty when there is nothing to say. */
export async function verdictLines(details: EvalDetails | undefined): Promise<string[]> {
  if (!details) return [];
  if (details.outcome === 'agent-failed') return ['the agent answered FAIL on a feasible task: OSWorld scores that 0'];
  if (details.outcome === 'infeasible') return ['the task is infeasible: it passes only when the agent answers FAIL'];
  if (details.outcome === 'postconfig-failed') return [`the postconfig steps failed: ${details.postconfigError ?? 'no message'}`];
  const lines: string[] = [];
  for (const report of details.metrics) {
    if (report.skipped || report.score === 1) continue;
    lines.push(`${report.func} scored ${report.score ?? '—'}${report.error ? `: ${report.error}` : ''}`);
    const missing = [report.result, report.expected].find((getter) => getter?.missing);
    if (missing) {
      lines.push(`  ${missing.type} found nothing: ${missing.missing}`);
      continue;
    }
    if (report.error) continue;
    const why = await explainScore(report.func, report.result?.output, report.expected?.output, report.options).catch(() => undefined);
    if (why) lines.push(...why.split('\n').map((line) => `  ${line.trimStart()}`));
  }
  return lines;
}
