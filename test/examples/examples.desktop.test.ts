// The example benchmark (examples/, `npm run examples`): every task loads, covers the formats and domains it promises,
// names input and gold files that exist, and carries a solution; then the `examples` project runs through the real
// vitest CLI twice, in containers: with the scripted agent every example passes — the infeasible one because its
// solution answers FAIL, the only task where that is right (the fail agent itself, scoring 1 on an infeasible task and
// 0 on the others: test/runner/lifecycle.desktop.test.ts); with the noop agent (which answers DONE at once) every
// example fails with a score of 0 — so no evaluator passes an untouched desktop.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { desktopImage } from '../../src/desktop/image.ts';
import { findSpider2vFile } from '../../src/adapters/spider2v/setup-steps.ts';
import { loadTasks } from '../../src/adapters/load.ts';
import type { EvalNode, GetterSpec, Task } from '../../src/task/types.ts';
import { vitestCli } from '../plugin/run-vitest.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const { tasks, errors } = loadTasks(['examples'], { cwd: ROOT });
const byKey = (format: string, domain: string) => tasks.filter((task) => task.format === format && task.domain === domain);

describe('the example tasks', () => {
  test('every file loads, and each format and OSWorld domain the README promises is there', () => {
    expect(errors.map((error) => error.message)).toEqual([]);
    for (const domain of ['chrome', 'libreoffice_writer', 'libreoffice_calc', 'libreoffice_impress', 'gimp', 'os', 'vlc', 'multi_apps']) {
      expect(byKey('osworld', domain).filter((task) => !task.flags.infeasible).length, `an OSWorld ${domain} example`).toBeGreaterThan(0);
    }
    expect(tasks.filter((task) => task.format === 'guios').length).toBeGreaterThanOrEqual(2);
    const spider = tasks.filter((task) => task.format === 'spider2v');
    expect(spider.length).toBeGreaterThanOrEqual(1);
    for (const task of spider) {
      expect(task.tags.length).toBeGreaterThan(0);
      expect(task.stepHint).toBeGreaterThan(0);
      // Spider2-V pairs an abstract and a verbose instruction of one task through `counterpart`, both ways.
      const twin = spider.find((other) => other.id === task.counterpart);
      expect(twin?.counterpart, `${task.id}'s counterpart points back`).toBe(task.id);
      expect([task, twin!].map((t) => t.tags.find((tag) => tag === 'abstract' || tag === 'verbose')).sort()).toEqual(['abstract', 'verbose']);
    }
    expect(tasks.filter((task) => task.flags.infeasible).length).toBe(1);
    expect(new Set(tasks.map((task) => task.id)).size).toBe(tasks.length);
  });

  test('every example has a solution; the infeasible one ends with FAIL, the others never say FAIL', () => {
    for (const task of tasks) {
      expect(task.solution?.length, `${task.id} has a solution`).toBeGreaterThan(0);
      const actions = task.solution!.flat();
      if (task.flags.infeasible) expect(actions.at(-1)).toBe('FAIL');
      else expect(actions).not.toContain('FAIL');
    }
  });

  test('every input and gold file a task names exists inside its own folder (a task may not upload from elsewhere)', () => {
    for (const task of tasks) {
      for (const file of namedFiles(task)) {
        expect(existsSync(file), `${task.id} names ${file}`).toBe(true);
        expect(file.startsWith(`${task.dir}/`), `${task.id}: ${file} is inside ${task.dir}`).toBe(true);
      }
    }
  });
});

/** Host files a task reads: downloads, uploads, GUI-OS inputs and scripts, cloud/local gold files. */
function namedFiles(task: Task): string[] {
  const files: string[] = [];
  for (const step of task.setup) {
    const p = step.parameters;
    if (step.type === 'download') for (const f of p.files as { url: string }[]) files.push(resolve(task.dir, f.url));
    if (step.type === 'upload_file_to_vm' || step.type === 'upload_script_and_execute') files.push(resolve(task.dir, String(p.local_path)));
    if (step.type === 'copyfile_from_host_to_guest') files.push(findSpider2vFile(step.type, task.dir, String(p.src)));
  }
  const visit = (node: EvalNode | undefined): void => {
    if (!node || node.kind === 'infeasible') return;
    if (node.kind === 'conj') {
      for (const child of node.children) visit(child);
      return;
    }
    for (const getter of [node.result, node.expected] as (GetterSpec | undefined)[]) {
      if (getter?.type === 'cloud_file') files.push(resolve(task.dir, String(getter.path)));
      if (getter?.type === 'local_file') files.push(findSpider2vFile('local_file', task.dir, String(getter.path)));
    }
  };
  visit(task.evaluator?.root);
  return files;
}

// --- end to end, in desktop containers ------------------------------------------------------------------------------

const IMAGE = desktopImage();
const hasImage = spawnSync('docker', ['image', 'inspect', IMAGE], { stdio: 'ignore' }).status === 0;
const title = hasImage ? 'npm run examples, in desktop containers' : `npm run examples (skipped: docker image ${IMAGE} is missing)`;

interface Assertion {
  status: string;
  failureMessages: string[];
  meta?: { deskbench?: { id: string; score?: number; state?: string; error?: string | null } };
}

/** Runs the examples project with one agent; returns each task's test result by task id. */
async function runExamples(agent: 'scripted' | 'noop'): Promise<Map<string, Assertion>> {
  const dir = await mkdtemp(join(tmpdir(), `deskbench-examples-${agent}-`));
  const out = join(dir, 'report.json');
  const run = await vitestCli(ROOT, ['run', '--project', 'examples', '--reporter=json', `--outputFile=${out}`], {
    DESKBENCH_AGENT: agent,
    DESKBENCH_RESULTS: join(dir, 'results'),
  });
  if (!existsSync(out)) throw new Error(`vitest wrote no report (exit ${run.code}):\n${run.stdout.slice(-3000)}\n${run.stderr.slice(-3000)}`);
  const report = JSON.parse(await readFile(out, 'utf8')) as { testResults: { assertionResults: Assertion[] }[] };
  const results = new Map<string, Assertion>();
  for (const file of report.testResults) {
    for (const assertion of file.assertionResults) results.set(assertion.meta?.deskbench?.id ?? '?', assertion);
  }
  expect([...results.keys()].sort()).toEqual(tasks.map((task) => task.id).sort());
  return results;
}

/** What a test result says of its task: the verdict, the score, how the agent ended, and any error before a score. */
function outcome(task: Task, result: Assertion) {
  const meta = result.meta?.deskbench;
  return { id: task.id, status: result.status, score: meta?.score, state: meta?.state, error: meta?.error ?? null };
}

describe.skipIf(!hasImage)(title, () => {
  test('with the scripted agent every example passes with score 1; the infeasible one, answered FAIL, ends in state fail', { timeout: 420_000 }, async () => {
    const results = await runExamples('scripted');
    for (const task of tasks) {
      const result = results.get(task.id)!;
      expect({ ...outcome(task, result), failure: result.failureMessages[0] }).toEqual({
        id: task.id,
        status: 'passed',
        score: 1,
        // OSWorld: FAIL as the last action scores 1 on an infeasible task.
        state: task.flags.infeasible ? 'fail' : 'success',
        error: null,
        failure: undefined,
      });
    }
  });

  test('with the noop agent every example fails: each is scored 0, none breaks before a score', { timeout: 300_000 }, async () => {
    const results = await runExamples('noop');
    for (const task of tasks) {
      const result = results.get(task.id)!;
      // The noop agent answers DONE, so the run ends in state "success"; the evaluator then scores the untouched
      // desktop. The infeasible example fails too: only a FAIL answer scores it 1.
      expect(outcome(task, result)).toEqual({
        id: task.id,
        status: 'failed',
        score: 0,
        state: 'success',
        error: null,
      });
      expect(result.failureMessages[0]).toContain('score 0 is below the pass threshold 1');
    }
  });
});
