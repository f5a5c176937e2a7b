// `deskbench compare`'s console output: the runs, the settings that differ, rates and differences per domain, per
// tag and overall, pass@k with repeats, the flips, every task's scores grouped by domain, and what was not compared.
import { type Comparison, type Difference, type GroupComparison, MIN_TASKS_FOR_VERDICT, type RunOfTask } from './compare.ts';

const VERDICT_TEXT: Record<Difference['verdict'], (run: string) => string> = {
  better: (run) => `${run} is better`,
  worse: (run) => `${run} is worse`,
  'no clear difference': () => 'no clear difference',
  'too few tasks': () => `too few tasks to tell, under ${MIN_TASKS_FOR_VERDICT}`,
};

/** The verdict as a table cell: only a finding is shown. */
export function verdictCell(difference: Difference): string {
  return difference.verdict === 'better' || difference.verdict === 'worse' ? verdictText(difference) : '';
}

export function verdictText(difference: Difference): string {
  return VERDICT_TEXT[difference.verdict](difference.run);
}

/** `61.54 [38.46, 84.62]` */
const withInterval = (value: number, low: number, high: number) => `${value.toFixed(2)} [${low.toFixed(2)}, ${high.toFixed(2)}]`;

export function formatComparison(comparison: Comparison): string {
  const { runs, method } = comparison;
  const baseline = runs[0].label;
  const level = `${Math.round(method.level * 100)}%`;
  const lines: string[] = [
    `deskbench compare: ${runs.length} runs, ${comparison.total.tasks} tasks compared${comparison.notComparable.length ? `, ${comparison.notComparable.length} not comparable (listed at the end)` : ''}`,
    ...runs.map((run) => `  ${run.label}  ${run.name}  agent ${run.agents.join(', ') || '?'}  ${run.tasks} tasks${run.runsPerTask > 1 ? `, ${run.runsPerTask} runs each` : ''}  (${run.dir})`),
    '',
  ];
  if (comparison.settingsThatDiffer.length) {
    lines.push('Settings that differ:');
    for (const { setting, values } of comparison.settingsThatDiffer) lines.push(`  ${setting}: ${values.map((value, i) => `${runs[i].label} ${value}`).join(' · ')}`);
    lines.push('');
  }
  lines.push(
    `Rates: overall rate % (each task's score, errors counting 0), with ${level} intervals [low, high]: ${method.method} over ${method.over}, ${method.resamples} resamples, seed ${method.seed}.`,
    `Differences in points against ${baseline}; "better" or "worse" only when the interval excludes 0, over ${MIN_TASKS_FOR_VERDICT} tasks or more.`,
    '',
    groupTable('domain', { ...comparison.byDomain, 'all tasks': comparison.total }, runs.map((run) => run.label)),
    '',
    groupTable('tag', comparison.byTag, runs.map((run) => run.label)),
    '',
  );
  for (const difference of comparison.total.differences) {
    lines.push(`${difference.run} against ${baseline}: ${verdictText(difference)} (${signed(difference.difference)} points, ${level} interval ${signed(difference.low)} to ${signed(difference.high)}); ${difference.fixed} fixed, ${difference.broken} broken by ${difference.run}`);
  }
  if (comparison.total.passAtK) lines.push('', passAtKTable(comparison.total.passAtK, runs.map((run) => run.label)));
  for (const [index, run] of runs.slice(1).entries()) {
    const flipped = comparison.tasks.filter((task) => task.flips[index]);
    if (!flipped.length) continue;
    lines.push('', `Flips of ${run.label} against ${baseline}:`);
    for (const task of flipped) lines.push(`  ${task.flips[index] === 'fixed' ? 'fixed ' : 'broken'}  ${task.domain}/${task.id}  ${runs.map((r, i) => `${r.label} ${taskCell(task.runs[i])}`).join('  ')}`);
  }
  lines.push('', 'Tasks by domain:', taskTable(comparison));
  if (comparison.notComparable.length) {
    lines.push('', `Not comparable (${comparison.notComparable.length}):`);
    for (const task of comparison.notComparable) lines.push(`  ${task.domain}/${task.id}: ${task.reason}`);
  }
  return lines.join('\n');
}

function signed(x: number): string {
  return `${x > 0 ? '+' : ''}${x.toFixed(2)}`;
}

/** A task's result in one run: `1.00 pass`, or with repeats `0.67 2/3`. */
function taskCell(run: RunOfTask): string {
  const verdict = run.runs > 1 ? `${run.passed}/${run.runs}` : run.passed ? 'pass' : run.scores[0] === null ? run.states[0] : 'fail';
  return `${run.value.toFixed(2)} ${verdict}`;
}

function groupTable(title: string, groups: Record<string, GroupComparison>, labels: string[]): string {
  const others = labels.slice(1);
  const header = [title, 'tasks', ...labels, ...others.flatMap((label) => [`${label} − ${labels[0]}`, '', 'fixed', 'broken'])];
  const rows = Object.entries(groups).map(([name, group]) => [
    name,
    String(group.tasks),
    ...group.rates.map((rate) => withInterval(rate.rate, rate.low, rate.high)),
    ...group.differences.flatMap((d) => [withInterval(d.difference, d.low, d.high), verdictCell(d), String(d.fixed), String(d.broken)]),
  ]);
  const verdictColumns = others.map((_, j) => 2 + labels.length + j * 4 + 1);
  return table([header, ...rows], [0, ...verdictColumns]);
}

function passAtKTable(passAtK: NonNullable<GroupComparison['passAtK']>, labels: string[]): string {
  const header = ['k', ...labels.map((label) => `${label} pass@k %`), ...labels.map((label) => `${label} pass^k %`)];
  const rows = passAtK.map((row) => [String(row.k), ...row.passAt.map((x) => x.toFixed(2)), ...row.passHat.map((x) => x.toFixed(2))]);
  return `pass@k (at least one of k runs passes) and pass^k (all k pass), over the tasks compared:\n${table([header, ...rows], [])}`;
}

function taskTable(comparison: Comparison): string {
  const labels = comparison.runs.map((run) => run.label);
  const header = ['', ...labels, ...labels.slice(1).map((label) => `${label} vs ${labels[0]}`), 'tags'];
  const rows: string[][] = [];
  for (const domain of Object.keys(comparison.byDomain)) {
    rows.push([domain, ...header.slice(1).map(() => '')]);
    for (const task of comparison.tasks.filter((t) => t.domain === domain)) {
      rows.push([`  ${task.id}`, ...task.runs.map(taskCell), ...task.flips.map((flip) => flip ?? ''), task.tags.join(' ')]);
    }
  }
  return table([header, ...rows], [0, header.length - 1]);
}

/** Columns padded to their widest cell; `left` columns aligned left, the others right. */
function table(rows: string[][], left: number[]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((cells) => (cells[i] ?? '').length)));
  return rows.map((cells) => cells.map((cell, i) => (left.includes(i) ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ').trimEnd()).join('\n');
}
