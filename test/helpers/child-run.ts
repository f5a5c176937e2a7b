// Runs a command in a child process tied to the current test: when the test ends early (its timeout, a failure, the
// run cancelled), the child gets SIGINT — deskbench's Ctrl-C path — and the containers of its run are removed, so a
// timed-out run never keeps desktops busy under the tests that follow.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { onTestFinished } from 'vitest';

export interface ChildRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface ChildRunOptions {
  cwd: string;
  env?: Record<string, string | undefined>;
  /** Kill the child after this long even when the test has no timeout of its own (default 10 min). */
  timeoutMs?: number;
}

/**
 * A run id of a child run's own, under the current one when there is one (a desktop test project's run: its containers
 * then tell from their label which run started them).
 */
export function childRunId(name = 'child'): string {
  return `${process.env.DESKBENCH_RUN_ID ?? 'test'}-${name}-${randomUUID().slice(0, 8)}`;
}

/**
 * The environment of a child process a test starts: this process's with `extra` on top (a variable set to undefined is
 * left out), and always a run id of the child's own — extra's DESKBENCH_RUN_ID when it gives one, else childRunId(name).
 * Never the inherited one: in the desktop project that is the id every file's pooled desktop carries
 * (test/desktop-project.ts), and a child that runs the deskbench plugin (a vitest run, `deskbench verify`) removes every
 * container of its run id at its teardown and from its reaper when it exits — another file's desktop included.
 */
export function childEnv(extra: Record<string, string | undefined> = {}, name = 'child'): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra, DESKBENCH_RUN_ID: extra.DESKBENCH_RUN_ID ?? childRunId(name) };
  for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
  return env;
}

export async function runChild(command: string, args: string[], options: ChildRunOptions): Promise<ChildRun> {
  // Its own run id (unless the caller set one), so only this child's containers are removed after an early end. The id
  // goes into the child's environment even when the caller's env names DESKBENCH_RUN_ID as undefined: the child then
  // took an id of its own that the removal below did not know.
  const env = childEnv(options.env);
  const runId = env.DESKBENCH_RUN_ID as string;
  const abort = new AbortController();
  let finished = false;
  try {
    onTestFinished(async () => {
      if (finished) return;
      abort.abort();
      await removeRunContainers(runId);
    });
  } catch {
    // Called outside a test (a beforeAll): the timeout below still bounds the child.
  }
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      {
        cwd: options.cwd,
        env,
        maxBuffer: 64 * 1024 * 1024,
        timeout: options.timeoutMs ?? 600_000,
        killSignal: 'SIGINT',
        signal: abort.signal,
      },
      (error, stdout, stderr) => {
        finished = true;
        const code = error ? (typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : 1) : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

async function removeRunContainers(runId: string): Promise<void> {
  // Give the child's own Ctrl-C cleanup a moment first; then remove whatever is left.
  await new Promise((resolve) => setTimeout(resolve, 5_000));
  const { removeContainers } = await import('../../src/desktop/cleanup.ts');
  await removeContainers({ runId }).catch(() => {});
}

/**
 * The `KEY=value` words a run record's command (deskbench rerun) starts with for a child run given `extra` on top of
 * this process's environment: the variables that shape a run (DESKBENCH_* but the run id, DOCKER_HOST), sorted.
 */
export function shapingVariables(extra: Record<string, string>): string {
  const env = { ...process.env, ...extra };
  return Object.keys(env)
    .filter((key) => key === 'DOCKER_HOST' || (key.startsWith('DESKBENCH_') && key !== 'DESKBENCH_RUN_ID'))
    .sort((a, b) => a.localeCompare(b))
    .map((key) => `${key}=${env[key]}`)
    .join(' ');
}
