// The single-run report's intervals (report.json, console, HTML) and the run record: the command line and environment
// as recorded, the task files' corpus commit read from a real git checkout, and the record in the HTML header.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { type TaskRecord, buildReport, formatReport } from '../../src/node/report/aggregate.ts';
import { writeHtmlReport } from '../../src/node/report/html.ts';
import { buildRunRecord, commandLine, commandOf } from '../../src/node/report/run-record.ts';

const record = (over: Partial<TaskRecord>): TaskRecord => ({
  id: 'x', name: 'x', domain: 'os', format: 'osworld', tags: ['os'], testState: 'passed', state: 'success',
  score: 1, steps: 2, durationMs: 1000, evalError: null, error: null, resultDir: null, ...over,
});

describe('intervals in the single-run report', () => {
  // os: 3 of 4 pass; chrome: 1 task that broke before a score (counts 0).
  const records = [
    ...['a', 'b', 'c'].map((id) => record({ id })),
    record({ id: 'd', score: 0, testState: 'failed' }),
    record({ id: 'e', domain: 'chrome', score: null, testState: 'failed', state: 'SETUP_ERROR' }),
  ];

  test('report.json: the overall rate with its bootstrap interval, in total and per domain', () => {
    const report = buildReport(records);
    // Total: 3 of 5 → Binomial(5, 0.6)/5 has its 2.5% quantile at 1/5 and its 97.5% at 5/5.
    expect(report.intervals).toEqual({
      method: { method: 'percentile bootstrap', over: 'tasks', resamples: 2000, seed: 1, level: 0.95 },
      total: { rate: 60, low: 20, high: 100, tasks: 5 },
      byDomain: {
        chrome: { rate: 0, low: 0, high: 0, tasks: 1 },
        // 3 of 4: Binomial(4, 0.75)/4 → 25% to 100%.
        os: { rate: 75, low: 25, high: 100, tasks: 4 },
      },
    });
  });

  test('the console summary prints the overall rate with its interval', () => {
    expect(formatReport(buildReport(records))).toContain(
      'Overall rate 60.00% (95% interval 20.00–100.00%): percentile bootstrap over 5 tasks, 2000 resamples, seed 1.',
    );
  });

  test('with repeats each task counts once and its runs are resampled too', () => {
    const report = buildReport([record({ id: 'a', repeat: 1 }), record({ id: 'a', repeat: 2, score: 0, testState: 'failed' })]);
    expect(report.intervals?.method.over).toBe('tasks and runs within a task');
    // One task passing 1 of 2 runs: Binomial(2, 0.5)/2 → 0% to 100%.
    expect(report.intervals?.total).toEqual({ rate: 50, low: 0, high: 100, tasks: 1 });
  });

  test('the HTML report shows the overall interval and each domain’s', () => {
    const dir = mkdtempSync(join(tmpdir(), 'deskbench-intervals-'));
    writeHtmlReport(buildReport(records), dir);
    const index = readFileSync(join(dir, 'index.html'), 'utf8');
    expect(index).toContain('Overall rate <b>60.00%</b>, 95% interval <b>20.00–100.00%</b>');
    expect(index).toMatch(/<tr><td>os<\/td>.*<td class="num">75\.00<\/td><td class="num">25\.00–100\.00<\/td><\/tr>/);
  });
});

describe('the run record', () => {
  test('the command: vitest by name, the DESKBENCH_ variables that shape a run (not deskbench’s own), shell-quoted', () => {
    const env = { DESKBENCH_AGENT: './my agent.ts', DESKBENCH_RUN_ID: 'run-1', DOCKER_HOST: 'tcp://box:2375', HOME: '/root' };
    const command = commandOf(['/usr/bin/node', '/p/node_modules/vitest/vitest.mjs', 'run', '--tags-filter', 'os && !internet'], '/p', env);
    expect(command).toEqual({ program: 'vitest', args: ['run', '--tags-filter', 'os && !internet'], cwd: '/p', env: { DESKBENCH_AGENT: './my agent.ts', DOCKER_HOST: 'tcp://box:2375' } });
    expect(commandLine(command)).toBe(`DESKBENCH_AGENT='./my agent.ts' DOCKER_HOST=tcp://box:2375 npx vitest run --tags-filter 'os && !internet'`);
    expect(commandLine(commandOf(['node', '/p/bin/deskbench.js', 'verify', 'tasks/'], '/p', {}))).toBe('npx deskbench verify tasks/');
    expect(commandLine(commandOf(['node', '/p/scripts/bench.ts', "it's"], '/p', {}))).toBe(`node scripts/bench.ts 'it'\\''s'`);
  });

  test('task files, their corpus commit and changes since, images, agents, host; a changed task file is named', () => {
    const corpus = mkdtempSync(join(tmpdir(), 'deskbench-corpus-'));
    const git = (...args: string[]) => execFileSync('git', ['-C', corpus, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { encoding: 'utf8' }).trim();
    git('init', '-q');
    mkdirSync(join(corpus, 'os'));
    writeFileSync(join(corpus, 'os', 'a.json'), '{"id":"a"}');
    writeFileSync(join(corpus, 'os', 'b.json'), '{"id":"b"}');
    git('add', '.');
    git('commit', '-qm', 'tasks');
    const commit = git('rev-parse', 'HEAD');
    writeFileSync(join(corpus, 'os', 'b.json'), '{"id":"b","changed":true}');
    writeFileSync(join(corpus, 'deskbench-files.lock.json'), '{"lockfileVersion":1,"files":{}}\n');
    const desktop = { image: 'deskbench/desktop:latest', imageId: 'sha256:abc', buildHash: '2a6f201bf2ba', versions: { gedit: '43' } };
    const agent = { name: 'weak', module: 'agents/weak.ts', moduleSha256: 'f'.repeat(64), description: { model: 'm', temperature: 0 } };
    const run = buildRunRecord({
      records: [
        record({ id: 'a', taskFile: 'os/a.json', taskSha256: '1'.repeat(64), desktop }),
        record({ id: 'b', taskFile: 'os/b.json', taskSha256: '2'.repeat(64), desktop }),
      ],
      agents: [agent, agent],
      argv: ['node', 'vitest.mjs', 'run'],
      cwd: corpus,
      env: {},
      runId: 'run-7',
      options: { maxSteps: 15 },
      filesLock: join(corpus, 'deskbench-files.lock.json'),
      shard: { index: 1, count: 2 },
      now: new Date('2026-11-27T10:00:00Z'),
    });
    expect(run).toMatchObject({
      command: { program: 'vitest', args: ['run'], cwd: corpus, env: {} },
      shard: '1/2',
      options: { maxSteps: 15 },
      agents: [agent],
      taskFiles: { 'os/a.json': '1'.repeat(64), 'os/b.json': '2'.repeat(64) },
      corpora: [{ root: '.', commit, modified: ['os/b.json'] }],
      images: [{ image: 'deskbench/desktop:latest', imageId: 'sha256:abc', buildHash: '2a6f201bf2ba' }],
      filesLock: { file: 'deskbench-files.lock.json', sha256: createHash('sha256').update('{"lockfileVersion":1,"files":{}}\n').digest('hex') },
      runId: 'run-7',
      recordedAt: '2026-11-27T10:00:00.000Z',
    });
    // No lock where the run looked for one: no field.
    expect(buildRunRecord({ records: [], agents: [], cwd: corpus, filesLock: join(corpus, 'no-such.lock.json') }).filesLock).toBeUndefined();
    expect(run.host.cpus).toBeGreaterThan(0);
    // deskbench's own checkout: this repository's HEAD.
    expect(run.deskbench.commit).toBe(execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8', cwd: import.meta.dirname }).trim());

    const dir = mkdtempSync(join(tmpdir(), 'deskbench-record-html-'));
    writeHtmlReport({ ...buildReport([record({})]), run }, dir);
    const index = readFileSync(join(dir, 'index.html'), 'utf8');
    expect(index).toContain('<details id="run-record">');
    expect(index).toContain('<code>npx vitest run</code>');
    expect(index).toContain('<b>weak</b> (agents/weak.ts <code>ffffffffffff</code>) · {&quot;model&quot;:&quot;m&quot;,&quot;temperature&quot;:0}');
    expect(index).toContain('build 2a6f201bf2ba');
    expect(index).toContain(`. at <code>${commit.slice(0, 12)}</code> <span class="fail">(1 task files changed since)</span>`);
  });
});
