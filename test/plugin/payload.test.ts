// The worker payload the plugin provides (src/node/plugin/payload.ts): how each way of giving the agent reaches the
// worker as an AgentSpec, and which shipped solution each task replays.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resolveOptions } from '../../src/node/plugin/options.ts';
import { workerPayload } from '../../src/node/plugin/payload.ts';
import { loadSolutions } from '../../src/solutions/load.ts';
import type { Task } from '../../src/task/types.ts';

const resolveSpec = async (spec: string) => `/resolved/${spec}`;
const payload = (agent: unknown, extra: { tasks?: Task[]; solutions?: string[]; solutionVariant?: string } = {}) => {
  const options = resolveOptions({ tasks: 'tasks', agent: agent as string, solutions: extra.solutions ?? [], ...(extra.solutionVariant ? { solutionVariant: extra.solutionVariant } : {}) });
  return workerPayload({ runId: 'run-x', options, tasks: extra.tasks ?? [], solutions: loadSolutions(options.solutions), configFiles: ['/p/vitest.config.ts'], resolveSpec });
};

describe('the agent in the payload', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('a built-in by name, a module file as it is, a package as the config would resolve it, an object by name and the config files', async () => {
    expect((await payload('noop')).agent).toEqual({ kind: 'builtin', name: 'noop' });
    expect((await payload('/p/agents/mine.ts')).agent).toEqual({ kind: 'module', module: '/p/agents/mine.ts' });
    expect((await payload('my-agent-package')).agent).toEqual({ kind: 'module', module: '/resolved/my-agent-package' });
    const object = { name: 'inline', predict: () => ({ actions: ['DONE'] }) };
    expect((await payload(object)).agent).toEqual({ kind: 'object', name: 'inline', configFiles: ['/p/vitest.config.ts'] });
  });

  it('DESKBENCH_AGENT wins: a built-in name, or a path relative to where vitest runs', async () => {
    vi.stubEnv('DESKBENCH_AGENT', 'fail');
    expect((await payload('scripted')).agent).toEqual({ kind: 'builtin', name: 'fail' });
    vi.stubEnv('DESKBENCH_AGENT', './agents/other.ts');
    expect((await payload('scripted')).agent).toEqual({ kind: 'module', module: resolve('agents/other.ts') });
  });

  it('carries the run id, the run options and the agent options, and counts the task tests for the warm pool', async () => {
    const task = { id: 't1', format: 'osworld', file: '/c/os/t1.json' } as Task;
    const made = await workerPayload({
      runId: 'run-7',
      options: resolveOptions({ tasks: 'tasks', repeats: 3, maxSteps: 4, agentOptions: { apiKey: 'k' } }),
      tasks: [task, { ...task, id: 't2', file: '/c/os/t2.json' }],
      solutions: new Map(),
      configFiles: [],
      resolveSpec,
    });
    expect(made).toMatchObject({ runId: 'run-7', repeats: 3, taskRuns: 6, agentOptions: { apiKey: 'k' }, run: { maxSteps: 4 } });
    expect(made.run).not.toHaveProperty('tasks');
  });
});

describe('the shipped solutions in the payload', () => {
  const folder = mkdtempSync(join(tmpdir(), 'deskbench-payload-solutions-'));
  mkdirSync(join(folder, 'osworld'));
  const steps = { id: 'a', note: 'types it', solution: [['DONE']] };
  writeFileSync(join(folder, 'osworld', 'a.json'), JSON.stringify(steps));
  writeFileSync(join(folder, 'osworld', 'a.gui.json'), JSON.stringify(steps));
  const task = (id: string): Task => ({ id, format: 'osworld', file: `/c/os/${id}.json` }) as Task;

  it('names the solution file of each task that has one, and none for a variant the task lacks', async () => {
    expect((await payload('scripted', { tasks: [task('a'), task('b')], solutions: [folder] })).solutions).toEqual({ '/c/os/a.json': join(folder, 'osworld', 'a.json') });
    const gui = await payload('scripted', { tasks: [task('a'), task('b')], solutions: [folder], solutionVariant: 'gui' });
    expect(gui.solutions).toEqual({ '/c/os/a.json': join(folder, 'osworld', 'a.gui.json'), '/c/os/b.json': null });
  });
});
