// The comparison of runs behind `deskbench compare` (compare.json): the first run is the baseline, every other run is
// compared with it over the tasks all of them ran comparably — same task file, same desktop image. Per task: each
// run's scores and the flips (fixed or broken against the baseline); per domain, per tag and overall: each run's rate
// with its 95% bootstrap interval and the paired difference with its interval, which alone decides "better" or
// "worse"; pass@k and pass^k when tasks ran several times. Tasks that cannot be compared are listed with the reason.
import type { RunReport, TaskRecord } from '../aggregate.ts';
import { type RateInterval, asRate, runsByTask, scoreValue, taskKey } from '../rate-intervals.ts';
import { type BootstrapMethod, type BootstrapOptions, bootstrapDifference, bootstrapMean, bootstrapMethod, passAtK, passHatK } from '../stats.ts';
import { taskPageName } from '../html.ts';
import { type LoadedRun, runName } from './load.ts';

interface ComparedRun {
  /** A, B, C… in the order given. */
  label: string;
  name: string;
  dir: string;
  /** The agents the run record names, else the agent folder of its results. */
  agents: string[];
  images: string[];
  generatedAt: string;
  tasks: number;
  /** Most runs of one task (the repeats option), 1 without. */
  runsPerTask: number;
}

/** A run against the baseline over a group of tasks. */
export interface Difference {
  /** The run's label (B, C…); the baseline is A. */
  run: string;
  /** Rate of the run − rate of the baseline, in points, with its interval. */
  difference: number;
  low: number;
  high: number;
  /** `better` or `worse` only when the interval excludes 0 over at least MIN_TASKS_FOR_VERDICT tasks. */
  verdict: 'better' | 'worse' | 'no clear difference' | 'too few tasks';
  /** Tasks whose pass rate rose against the baseline (fixed), or fell (broken). */
  fixed: number;
  broken: number;
}

export interface GroupComparison {
  tasks: number;
  /** Each run's rate with its interval, in run order. */
  rates: RateInterval[];
  differences: Difference[];
  /** With repeats: pass@k and pass^k in percent for k = 1 … the fewest runs of a task, per run. */
  passAtK?: { k: number; passAt: number[]; passHat: number[] }[];
}

export interface RunOfTask {
  /** Each run's raw score (null when it broke), in run order. */
  scores: (number | null)[];
  runs: number;
  passed: number;
  /** The rate's value for this task: mean of max(0, score) over its runs. */
  value: number;
  states: string[];
  /** Results folders relative to the run's folder, one per run of the task. */
  resultDirs: (string | null)[];
  /** The HTML report's trajectory page of each run, relative to the run's folder. */
  pages: string[];
}

export interface TaskComparison {
  key: string;
  id: string;
  domain: string;
  tags: string[];
  /** Per run, in run order. */
  runs: RunOfTask[];
  /** Per run after the baseline: `fixed` (its pass rate rose), `broken` (fell), or null. */
  flips: ('fixed' | 'broken' | null)[];
}

interface NotComparable {
  id: string;
  domain: string;
  reason: string;
  /** Per run: the task's runs there, null where it is missing. */
  runs: (RunOfTask | null)[];
}

export interface Comparison {
  generatedAt: string;
  /** What the rates are. */
  rate: string;
  method: BootstrapMethod;
  runs: ComparedRun[];
  /** Settings of the run records that differ between the runs (agent, options, image, deskbench). */
  settingsThatDiffer: { setting: string; values: string[] }[];
  total: GroupComparison;
  byDomain: Record<string, GroupComparison>;
  byTag: Record<string, GroupComparison>;
  tasks: TaskComparison[];
  notComparable: NotComparable[];
}

export interface CompareOptions extends BootstrapOptions {
  /** Compare tasks that ran on different desktop images (two desktops, one agent); by default they are not comparable. */
  ignoreImage?: boolean;
  now?: Date;
}

const LABELS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * Fewer tasks get no verdict: a bootstrap sees only the variation the tasks showed, so over a handful its interval is
 * too narrow (one task that flipped gives an interval of a single point, which would read as certain).
 */
export const MIN_TASKS_FOR_VERDICT = 5;

export function compareRuns(loaded: readonly LoadedRun[], options: CompareOptions = {}): Comparison {
  if (loaded.length < 2) throw new RangeError(`compare needs at least two runs (got ${loaded.length})`);
  if (loaded.length > LABELS.length) throw new RangeError(`compare takes at most ${LABELS.length} runs (got ${loaded.length})`);
  const byRun = loaded.map((run) => new Map(runsByTask(run.report.tasks).map((records) => [taskKey(records[0]), records])));
  const keys = [...new Set(byRun.flatMap((tasks) => [...tasks.keys()]))];
  const tasks: TaskComparison[] = [];
  const notComparable: NotComparable[] = [];
  for (const key of keys) {
    const found = byRun.map((tasksOfRun) => tasksOfRun.get(key));
    const first = found.find((records) => records)![0];
    const runs = found.map((records) => (records ? runOfTask(records) : null));
    const reason = whyNotComparable(found, options);
    if (reason) notComparable.push({ id: first.id, domain: first.domain, reason, runs });
    else {
      const compared = runs as RunOfTask[];
      const tags = [...new Set(found.flatMap((records) => records!.flatMap((record) => record.tags)))].sort();
      tasks.push({ key, id: first.id, domain: first.domain, tags, runs: compared, flips: compared.slice(1).map((run) => flipOf(compared[0], run)) });
    }
  }
  const order = (a: { domain: string; id: string }, b: { domain: string; id: string }) => a.domain.localeCompare(b.domain) || a.id.localeCompare(b.id);
  tasks.sort(order);
  notComparable.sort(order);
  const labels = loaded.map((_, i) => LABELS[i]);
  const group = (members: TaskComparison[]) => groupComparison(members, labels, options);
  const groupsBy = (keysOf: (task: TaskComparison) => string[]) => {
    const names = [...new Set(tasks.flatMap(keysOf))].sort((a, b) => a.localeCompare(b));
    return Object.fromEntries(names.map((name) => [name, group(tasks.filter((task) => keysOf(task).includes(name)))]));
  };
  return {
    generatedAt: (options.now ?? new Date()).toISOString(),
    rate: 'overall rate in %: each task’s raw score (the mean over its runs), errors and skips counting 0, averaged over the tasks compared',
    method: bootstrapMethod(tasks.map((task) => valuesOf(task.runs[0])), options),
    runs: loaded.map((run, i) => comparedRun(run, labels[i])),
    settingsThatDiffer: settingsThatDiffer(loaded.map((run) => run.report)),
    total: group(tasks),
    byDomain: groupsBy((task) => [task.domain]),
    byTag: groupsBy((task) => task.tags),
    tasks,
    notComparable,
  };
}

function runOfTask(records: TaskRecord[]): RunOfTask {
  const values = records.map(scoreValue);
  return {
    scores: records.map((record) => record.score),
    runs: records.length,
    passed: records.filter((record) => record.testState === 'passed').length,
    value: values.reduce((total, value) => total + value, 0) / values.length,
    states: records.map((record) => record.state),
    resultDirs: records.map((record) => record.resultDir),
    pages: records.map((record) => `tasks/${taskPageName(record)}`),
  };
}

/** The values the rates average: each run's raw score, 0 when it has none. */
function valuesOf(run: RunOfTask): number[] {
  return run.scores.map((score) => scoreValue({ score }));
}

/**
 * A task is compared only when every run has it, from the same task file, (unless ignored) on the same image, and
 * without an infrastructure error (a download that failed is no agent's doing).
 */
function whyNotComparable(found: (TaskRecord[] | undefined)[], options: CompareOptions): string | undefined {
  const missing = found.flatMap((records, i) => (records ? [] : [LABELS[i]]));
  if (missing.length) return `missing in ${missing.join(', ')}`;
  const differ = (field: (record: TaskRecord) => string | undefined) => {
    const values = found.map((records) => field(records![0]));
    return values.every((value) => value !== undefined) && new Set(values).size > 1 ? values : undefined;
  };
  const hashes = differ((record) => record.taskSha256);
  if (hashes) return `task file differs: ${hashes.map((hash, i) => `${LABELS[i]} ${hash!.slice(0, 12)}`).join(', ')}`;
  const images = options.ignoreImage ? undefined : differ((record) => record.desktop?.imageId);
  if (images) return `different desktop image: ${images.map((id, i) => `${LABELS[i]} ${id!.replace(/^sha256:/, '').slice(0, 12)}`).join(', ')}`;
  const infrastructure = found.flatMap((records, i) => [...new Set(records!.flatMap((record) => record.infraError ?? []))].map((code) => `${LABELS[i]} ${code}`));
  if (infrastructure.length) return `infrastructure error: ${infrastructure.join(', ')}`;
  return undefined;
}

function passRate(run: RunOfTask): number {
  return run.passed / run.runs;
}

function flipOf(baseline: RunOfTask, run: RunOfTask): TaskComparison['flips'][number] {
  const change = passRate(run) - passRate(baseline);
  return change > 0 ? 'fixed' : change < 0 ? 'broken' : null;
}

function groupComparison(tasks: TaskComparison[], labels: string[], options: BootstrapOptions): GroupComparison {
  const values = (run: number) => tasks.map((task) => valuesOf(task.runs[run]));
  const rates = labels.map((_, run) => asRate(bootstrapMean(values(run), options) ?? { estimate: 0, low: 0, high: 0 }, tasks.length));
  const differences = labels.slice(1).map((label, index): Difference => {
    const run = index + 1;
    const estimate = asRate(bootstrapDifference(values(0), values(run), options) ?? { estimate: 0, low: 0, high: 0 }, tasks.length);
    return {
      run: label,
      difference: estimate.rate,
      low: estimate.low,
      high: estimate.high,
      verdict: tasks.length < MIN_TASKS_FOR_VERDICT ? 'too few tasks' : estimate.low > 0 ? 'better' : estimate.high < 0 ? 'worse' : 'no clear difference',
      fixed: tasks.filter((task) => task.flips[index] === 'fixed').length,
      broken: tasks.filter((task) => task.flips[index] === 'broken').length,
    };
  });
  const fewestRuns = tasks.length ? Math.min(...tasks.flatMap((task) => task.runs.map((run) => run.runs))) : 1;
  const percent = (x: number) => Math.round(x * 10000) / 100;
  const meanOver = (run: number, of: (n: number, c: number) => number) => percent(tasks.reduce((total, task) => total + of(task.runs[run].runs, task.runs[run].passed), 0) / tasks.length);
  const passAt =
    fewestRuns > 1
      ? Array.from({ length: fewestRuns }, (_, i) => i + 1).map((k) => ({
          k,
          passAt: labels.map((_, run) => meanOver(run, (n, c) => passAtK(n, c, k))),
          passHat: labels.map((_, run) => meanOver(run, (n, c) => passHatK(n, c, k))),
        }))
      : undefined;
  return { tasks: tasks.length, rates, differences, ...(passAt ? { passAtK: passAt } : {}) };
}

function comparedRun(run: LoadedRun, label: string): ComparedRun {
  const { report } = run;
  const agents = report.run?.agents.map((agent) => agent.name) ?? [];
  // Reports without a run record: the agent folder of the OSWorld layout (pyautogui/<observation>/<agent>/…).
  const fromFolders = [...new Set(report.tasks.flatMap((task) => task.resultDir?.split('/')[2] ?? []))];
  return {
    label,
    name: runName(run),
    dir: run.dir,
    agents: agents.length ? agents : fromFolders,
    images: [...new Set(report.tasks.flatMap((task) => task.desktop?.imageId ?? []))],
    generatedAt: report.generatedAt,
    tasks: new Set(report.tasks.map(taskKey)).size,
    runsPerTask: report.repeats?.runsPerTask ?? 1,
  };
}

/** The run records' settings that are not the same in every run: what else, beside the agent, changed. */
function settingsThatDiffer(reports: readonly RunReport[]): Comparison['settingsThatDiffer'] {
  const settings = reports.map((report) => {
    const run = report.run;
    const flat: Record<string, string> = {};
    if (!run) return flat;
    flat.agent = run.agents.map((agent) => `${agent.name} (${agent.module}${agent.moduleSha256 ? ` ${agent.moduleSha256.slice(0, 12)}` : ''})`).join(', ');
    flat['agent description'] = run.agents.map((agent) => JSON.stringify(agent.description ?? {})).join(', ');
    flat['desktop image'] = run.images.map((image) => `${image.image ?? 'remote'} ${image.imageId?.replace(/^sha256:/, '').slice(0, 12) ?? ''}`.trim()).join(', ');
    flat.deskbench = `${run.deskbench.version} ${run.deskbench.commit?.slice(0, 12) ?? '(installed)'}${run.deskbench.modified.length ? ` + ${run.deskbench.modified.length} changed files` : ''}`;
    // resultsDir differs between any two runs and changes nothing they measure.
    for (const [name, value] of Object.entries(run.options ?? {})) if (name !== 'resultsDir') flat[`option ${name}`] = JSON.stringify(value);
    return flat;
  });
  if (settings.every((flat) => !Object.keys(flat).length)) return [];
  const names = [...new Set(settings.flatMap((flat) => Object.keys(flat)))];
  return names
    .map((setting) => ({ setting, values: settings.map((flat) => flat[setting] ?? '–') }))
    .filter(({ values }) => new Set(values).size > 1);
}
