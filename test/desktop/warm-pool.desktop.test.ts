// The run's pool of warm desktops (src/desktop/providers/docker/warm-pool.ts), on real containers: through the vitest CLI, small
// tasks each get a fresh container of their own that was started before they asked (but the first), a run filtered to
// two of the project's three task files starts two desktops and no more, and nothing is left after the run;
// `desktop.warm: 0` starts one per task as before. Then the pool itself: a desktop that died while
// waiting is not handed out, and when no desktop can start the task gets the start's error.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, test } from 'vitest';
import { removeContainers } from '../../src/desktop/cleanup.ts';
import { startDesktop } from '../../src/desktop/providers/docker/container.ts';
import { RUN_LABEL } from '../../src/desktop/labels.ts';
import { WarmDesktopPool } from '../../src/desktop/providers/docker/warm-pool.ts';
import { serveDesktopPool, takeDesktopFrom } from '../../src/desktop/providers/docker/warm-pool-endpoint.ts';
import { childRunId } from '../helpers/child-run.ts';
import { ownRunId } from '../helpers/desktops.ts';
import { readSummaries, vitestCli } from '../plugin/run-vitest.ts';

const PROJECT = resolve(import.meta.dirname, '../../fixtures/warm-pool-project');
const docker = (...args: string[]) => promisify(execFile)('docker', args).then(({ stdout }) => stdout.trim());
const runContainers = async (runId: string) => (await docker('ps', '-aq', '--filter', `label=${RUN_LABEL}=${runId}`)).split('\n').filter(Boolean);

/** Containers created for a run, as the engine reports them: id and creation time (ms). */
function watchCreations(runId: string): { stop(): Promise<{ id: string; createdMs: number }[]> } {
  const created: { id: string; createdMs: number }[] = [];
  const events: ChildProcess = spawn('docker', ['events', '--filter', 'type=container', '--filter', 'event=create', '--filter', `label=${RUN_LABEL}=${runId}`, '--format', '{{json .}}']);
  let buffered = '';
  events.stdout?.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines.filter(Boolean)) {
      const event = JSON.parse(line) as { id: string; timeNano: number };
      created.push({ id: event.id, createdMs: event.timeNano / 1e6 });
    }
  });
  return {
    stop: async () => {
      await new Promise((resolve) => setTimeout(resolve, 1000)); // the engine's last events
      events.kill();
      return created;
    },
  };
}

interface TaskRun {
  state: string;
  score: number;
  startMs: number;
  /** The desktop's container id (its first 12 characters), as the task read it from /proc/self/mountinfo (the hostname is OSWorld's, the same on every desktop). */
  host: string;
}

/** Runs the fixture's tasks (the file filters given, or all three) in one worker; returns each task's run and the containers the run created. */
async function runTasks(env: Record<string, string> = {}, filters: string[] = []) {
  const dir = await mkdtemp(join(tmpdir(), 'deskbench-warm-'));
  const runId = childRunId('warm');
  const watch = watchCreations(runId);
  const run = await vitestCli(PROJECT, ['run', ...filters], { DESKBENCH_RUN_ID: runId, DESKBENCH_RESULTS: join(dir, 'results'), ...env });
  const created = await watch.stop();
  const tasks = (await readSummaries(join(dir, 'results'))).map(({ results }): TaskRun => {
    const output = String(results.details?.metrics?.[0]?.result?.output ?? '');
    return { state: results.state, score: results.score, startMs: results.total_timing.start_time * 1000, host: /container (\w+) ran/.exec(output)?.[1] ?? `none in ${output}` };
  });
  tasks.sort((a, b) => a.startMs - b.startMs);
  const left = await runContainers(runId);
  return { run, tasks, created, left };
}

const containerOf = (task: TaskRun, created: { id: string; createdMs: number }[]) => created.find((container) => container.id.startsWith(task.host));

describe('a run with the pool', () => {
  // The two runs are independent (each counts its own run's containers) and mostly wait on their desktops: at once.
  let pooled: Awaited<ReturnType<typeof runTasks>>;
  let unpooled: Awaited<ReturnType<typeof runTasks>>;
  beforeAll(async () => {
    [pooled, unpooled] = await Promise.all([runTasks({}, ['000000000001', '000000000002']), runTasks({ DESKBENCH_WARM: '0' })]);
  }, 900_000);

  test('each task gets a fresh container of its own, started before it asked (but the first); a filtered run starts no more than it takes; none is left', async () => {
    const { run, tasks, created, left } = pooled;
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(tasks.map((task) => [task.state, task.score])).toEqual([['success', 1], ['success', 1]]); // each desktop ran one task only
    expect(new Set(tasks.map((task) => task.host)).size).toBe(2);
    const containers = tasks.map((task) => containerOf(task, created));
    expect(containers.every(Boolean), `hosts ${tasks.map((t) => t.host)} among ${created.map((c) => c.id)}`).toBe(true);
    // The first task's desktop started when it asked (the pool fills on the first request); the others were waiting.
    expect(containers[0]!.createdMs).toBeGreaterThan(tasks[0].startMs);
    expect(containers[1]!.createdMs).toBeLessThan(tasks[1].startMs);
    // One per task and no more: the pool starts no desktop beyond the task files the run takes (two of the project's three).
    expect(created).toHaveLength(2);
    expect(left).toEqual([]);
  }, 900_000);

  test('desktop.warm: 0 starts each task its own desktop when it asks, as without the pool', async () => {
    const { run, tasks, created, left } = unpooled;
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(tasks.map((task) => [task.state, task.score])).toEqual([['success', 1], ['success', 1], ['success', 1]]);
    expect(new Set(tasks.map((task) => task.host)).size).toBe(3);
    for (const task of tasks) expect(containerOf(task, created)!.createdMs).toBeGreaterThan(task.startMs);
    expect(created).toHaveLength(3);
    expect(left).toEqual([]);
  }, 900_000);
});

describe('the pool', () => {
  const runId = ownRunId('warm-pool');
  test('a desktop that died while waiting is discarded, not handed out', async () => {
    const pool = new WarmDesktopPool({ size: 1, start: () => startDesktop({ runId }) });
    try {
      const first = await pool.take(); // started for this request; a second one starts once it is ready
      await first.stop();
      await pool.settled();
      const [waiting] = await runContainers(runId);
      expect(waiting).toBeDefined();
      await docker('kill', waiting);
      const next = await pool.take();
      expect(waiting.startsWith(next.containerId.slice(0, 12))).toBe(false);
      expect(await next.client.platform()).toBe('Linux');
      await next.stop();
    } finally {
      await pool.close();
      await removeContainers({ runId });
    }
  }, 900_000);

  test('a worker asks over the endpoint with the token; when no desktop can start, it gets the start\'s error', async () => {
    const pool = new WarmDesktopPool({ size: 1, start: () => startDesktop({ image: 'deskbench/desktop:not-built' }) });
    const served = await serveDesktopPool(pool);
    try {
      await expect(takeDesktopFrom({ ...served.address, token: 'wrong' })).rejects.toThrow('wrong or missing token');
      await expect(takeDesktopFrom(served.address)).rejects.toThrow(/the desktop image deskbench\/desktop:not-built is missing: build it with `npx deskbench image`/);
      // Asked again, it tries again (a failed start is not retried in a loop behind the tasks' backs, nor remembered).
      await expect(takeDesktopFrom(served.address)).rejects.toThrow(/is missing/);
    } finally {
      await served.close();
    }
  });
});
