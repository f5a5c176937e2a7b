// Fixtures for hand-written tests (`import { test } from 'deskbench/test'`): a fresh `desktop` per test (started on
// first use, always stopped), the `agent` (scripted by default), and `runTask(task)` that runs a task file or a
// Task end to end in its own desktop, as generated tests do.
import { test as base } from 'vitest';
import { scriptedAgent } from './agent/agents/scripted.ts';
import type { Agent } from './agent/types.ts';
import { DEFAULT_DESKTOP, type DesktopSpec, startDesktopFor } from './desktop/providers/index.ts';
import type { DesktopHandle } from './desktop/providers/provider.ts';
import { DEFAULT_RUN_OPTIONS } from './contract/run-options.ts';
import { type RunTaskOptions, type TaskOutcome, runTask as runTaskInDesktop, runTaskOptions } from './worker/run-task.ts';
import { readTaskFile } from './adapters/load.ts';
import type { Task } from './task/types.ts';
import { MalformedInputError } from './errors.ts';

export interface DeskbenchFixtures {
  /** Which desktop the `desktop` fixture and runTask start (default: a local container from deskbench/desktop:latest). */
  desktopSpec: DesktopSpec;
  /** A fresh desktop for this test, stopped when the test ends. */
  desktop: DesktopHandle;
  /** The agent runTask uses. */
  agent: Agent;
  /** Runs a task (a file path or a loaded Task) end to end in a desktop of its own. */
  runTask(task: string | Task, overrides?: Partial<RunTaskOptions>): Promise<TaskOutcome>;
}

export const test = base.extend<DeskbenchFixtures>({
  desktopSpec: [DEFAULT_DESKTOP, { injected: true }],
  desktop: async ({ desktopSpec }, use) => {
    const desktop = await startDesktopFor(desktopSpec);
    try {
      await use(desktop);
    } finally {
      await desktop.stop();
    }
  },
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this destructuring; it has none
  agent: async ({}, use) => {
    await use(scriptedAgent());
  },
  runTask: async ({ agent, desktopSpec, signal }, use) => {
    await use((task, overrides = {}) =>
      runTaskInDesktop(typeof task === 'string' ? loadTask(task) : task, {
        ...runTaskOptions(DEFAULT_RUN_OPTIONS, agent, signal),
        desktop: desktopSpec,
        ...overrides,
      }),
    );
  },
});

function loadTask(file: string): Task {
  const result = readTaskFile(file, { explicit: true });
  if (result.kind === 'task') return result.task;
  throw result.kind === 'error' ? result.error : new MalformedInputError(`${file} is not a task file`);
}

export { expect, describe } from 'vitest';
