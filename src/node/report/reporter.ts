// The deskbench reporter (`deskbench/reporter`; the plugin also installs it): at the end of a run it prints success
// rates by domain and by tag, and writes `<resultsDir>/report.json` and the HTML report `<resultsDir>/index.html`.
// It reads only the tests' meta, so it works on a merged blob report (`vitest --merge-reports`) as on a live run, and
// beside any other reporter (junit, json, github-actions, html).
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { TestArtifact } from 'vitest';
import type { Reporter, TestCase, TestModule, Vitest } from 'vitest/node';
import { PAYLOAD_KEY } from '../../contract/payload.ts';
import type { TaskTestMeta } from '../../contract/task-test.ts';
import { type TaskRecord, buildReport, formatReport } from './aggregate.ts';
import { writeHtmlReport } from './html.ts';
import { formatProgress, isProgressArtifact } from '../../contract/progress.ts';
import { redact, secretValues } from '../../shared/redact.ts';
import { buildRunRecord } from './run-record.ts';
import type { TaskSummary } from '../../contract/summary.ts';
import { writeAtomic } from '../../shared/write-atomic.ts';
import { finalizeRunningSummaries } from './finalize-running.ts';

export interface DeskbenchReporterOptions {
  /** Where report.json and index.html go (default `results`). */
  resultsDir?: string;
  /** Print the table (default true). */
  print?: boolean;
  /** Literal secrets to mask in report.json and the HTML report (the environment's are always masked). */
  secrets?: readonly string[];
  /** Print one line when a running task enters a phase or its agent acts (default: as `print`). */
  progress?: boolean;
  /** The deskbench() options for the run record, as the plugin resolved them (secrets masked). */
  recordOptions?: Record<string, unknown>;
  /** The files lock the run checks downloads against (absolute; the record names it and its hash when it exists). */
  filesLock?: string;
}

export class DeskbenchReporter implements Reporter {
  readonly resultsDir: string;
  private readonly print: boolean;
  private readonly secrets: readonly string[];
  private readonly printProgress: boolean;
  private readonly recordOptions: Record<string, unknown> | undefined;
  private readonly filesLock: string | undefined;
  private vitest: Vitest | undefined;

  constructor(options: DeskbenchReporterOptions = {}) {
    this.resultsDir = resolve(options.resultsDir ?? 'results');
    this.print = options.print ?? true;
    this.printProgress = options.progress ?? this.print;
    this.secrets = [...new Set([...(options.secrets ?? []), ...secretValues({})])];
    this.recordOptions = options.recordOptions;
    this.filesLock = options.filesLock;
  }

  /** The run's id, from the plugin's payload; none in a merge of blob reports. */
  protected runId(): string | undefined {
    return this.vitest?.projects.map((project) => project.getProvidedContext()[PAYLOAD_KEY]?.runId).find(Boolean);
  }

  /** A task whose worker died (killed, crashed) never wrote its verdict: its summary still says RUNNING. */
  private finalizeRunning(): TaskSummary[] {
    const runId = this.runId();
    return runId ? finalizeRunningSummaries(this.resultsDir, runId, WORKER_ENDED) : [];
  }

  /** `-shard-1-of-4` on a sharded run: each shard writes its own report, which a --merge-reports run combines. */
  private shardSuffix = '';

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
    const shard = vitest.config.shard;
    this.shardSuffix = shard ? `-shard-${shard.index}-of-${shard.count}` : '';
  }

  /**
   * A running task's progress, as the worker recorded it (runtime.ts): one short line through vitest's logger, which
   * the default reporter keeps above its live summary.
   */
  onTestCaseArtifactRecord(test: TestCase, artifact: TestArtifact): void {
    if (!this.printProgress || !this.vitest || !isProgressArtifact(artifact)) return;
    const meta = (test.meta() as { deskbench?: TaskTestMeta }).deskbench;
    const name = meta ? `${meta.domain}/${shortId(meta.id)}` : test.name;
    this.vitest.logger.log(`  [deskbench] ${name} ${formatProgress(artifact.progress)}`);
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const ended = this.finalizeRunning();
    const endedById = new Map(ended.map((summary) => [`${summary.tool}/${summary.uid}`, summary]));
    const records = testModules.flatMap((module) => [...module.children.allTests()].map((test) => recordOf(test, endedById)).filter((r): r is TaskRecord => r !== undefined));
    if (records.length === 0) return; // not a deskbench run (or everything was filtered out)
    // What produced the run: this process's view, and the agents the workers left in the tests' meta.
    const agents = testModules.flatMap((module) => [...module.children.allTests()].flatMap((test) => (test.meta() as { deskbench?: TaskTestMeta }).deskbench?.agentIdentity ?? []));
    const config = this.vitest?.config;
    const run = buildRunRecord({
      records,
      agents,
      configFile: this.vitest?.vite.config.configFile,
      options: this.recordOptions,
      filesLock: this.filesLock,
      shard: config?.shard,
      mergedFrom: config?.mergeReports ? this.resultsDir : undefined,
      runId: this.runId(),
    });
    // Messages come from the workers already masked; masked again here for merged and older blob reports.
    const report = redact({ ...buildReport(records), run }, this.secrets);
    mkdirSync(this.resultsDir, { recursive: true });
    const json = join(this.resultsDir, `report${this.shardSuffix}.json`);
    writeAtomic(json, `${JSON.stringify(report, null, 2)}\n`);
    const html = writeHtmlReport(report, this.resultsDir, this.secrets, `index${this.shardSuffix}.html`);
    if (this.print) {
      process.stdout.write(`\n${formatReport(report)}\n\nreport: ${json}\nhtml:   ${html}\n`);
    }
  }
}

/** UUIDs cut to their first 8 characters, enough to tell the running tasks apart. */
function shortId(id: string): string {
  return id.length > 12 ? id.slice(0, 8) : id;
}

export const WORKER_ENDED = 'the vitest worker running this task ended before the task did (killed or crashed)';

/**
 * A task test's record, or undefined for tests that are not deskbench tasks or never ran (filtered out). A test whose
 * worker died has only its static meta; its finalised summary (`ended`, by domain/id) gives the state.
 */
export function recordOf(test: TestCase, ended: ReadonlyMap<string, TaskSummary> = new Map()): TaskRecord | undefined {
  const staticMeta = (test.meta() as { deskbench?: TaskTestMeta }).deskbench;
  const summary = staticMeta && !staticMeta.state ? ended.get(`${staticMeta.domain}/${staticMeta.id}`) : undefined;
  const meta: TaskTestMeta | undefined = summary ? { ...staticMeta!, state: summary.results.state, error: summary.results.output, score: 0, steps: summary.results.steps_taken } : staticMeta;
  if (!meta?.state) return undefined;
  const result = test.result();
  const scored = meta.resumed ? meta.score !== undefined : meta.state !== 'SKIPPED' && !meta.error;
  // A resumed task was skipped by vitest; its verdict is the earlier run's.
  const testState = meta.resumed ? (meta.passed ? 'passed' : 'failed') : result.state;
  return {
    id: meta.id,
    name: test.name,
    domain: meta.domain,
    format: meta.format,
    tags: meta.tags ?? test.tags ?? [],
    testState,
    state: meta.state,
    score: scored ? (meta.score ?? 0) : null,
    steps: meta.steps ?? 0,
    durationMs: meta.durationMs ?? test.diagnostic()?.duration ?? 0,
    evalError: meta.evalError ?? null,
    error: meta.error ?? null,
    resultDir: meta.resultDir ?? null,
    ...(meta.repeat ? { repeat: meta.repeat } : {}),
    ...(meta.desktop ? { desktop: meta.desktop } : {}),
    ...(meta.infraError ? { infraError: meta.infraError } : {}),
    ...(meta.taskSha256 ? { taskFile: meta.taskFile, taskSha256: meta.taskSha256 } : {}),
    progress: test.artifacts().filter(isProgressArtifact).map((artifact) => artifact.progress),
  };
}

export default DeskbenchReporter;
