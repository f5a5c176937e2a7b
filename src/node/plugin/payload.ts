// The run's payload for the workers (src/contract/payload.ts), made once in the main process: the run options, the
// agent as a spec the worker can load, and the shipped solution each task replays.
import { agentSpecProblem, isBuiltinAgent } from '../../agent/resolve.ts';
import type { AgentSpec, WorkerPayload } from '../../contract/payload.ts';
import { pickRunOptions } from '../../contract/run-options.ts';
import { isPathSpec, moduleFile } from '../../shared/module-spec.ts';
import { type Solutions, solutionFileFor } from '../../solutions/load.ts';
import type { Task } from '../../task/types.ts';
import type { ResolvedOptions } from './options.ts';

export interface PayloadInput {
  runId: string;
  /** The options, paths absolute. */
  options: ResolvedOptions;
  tasks: readonly Task[];
  solutions: Solutions;
  /** Config files that may call deskbench() with an agent object: the project's, then the root one. */
  configFiles: string[];
  /** Resolves a package specifier as the config file would (a task file's folder may be outside the project). */
  resolveSpec: (spec: string) => Promise<string>;
}

export async function workerPayload({ runId, options, tasks, solutions, configFiles, resolveSpec }: PayloadInput): Promise<WorkerPayload> {
  const solutionFiles: Record<string, string | null> = {};
  for (const task of tasks) {
    const found = solutionFileFor(task, solutions, options.solutionVariant);
    if (found) solutionFiles[task.file] = found.file;
    else if (options.solutionVariant) solutionFiles[task.file] = null; // asked for a variant the task lacks: no solution
  }
  return {
    runId,
    run: pickRunOptions(options),
    agent: await agentSpecOf(options.agent, configFiles, resolveSpec),
    agentOptions: options.agentOptions,
    repeats: options.repeats,
    solutions: solutionFiles,
    taskRuns: tasks.length * options.repeats,
  };
}

/**
 * The agent for this run: DESKBENCH_AGENT when set (a name, or a path relative to where vitest runs), else the agent
 * option (a module path already absolute, see withAbsolutePaths).
 */
async function agentSpecOf(agent: ResolvedOptions['agent'], configFiles: string[], resolveSpec: (spec: string) => Promise<string>): Promise<AgentSpec> {
  const override = process.env.DESKBENCH_AGENT;
  if (override) return isBuiltinAgent(override) ? { kind: 'builtin', name: override } : { kind: 'module', module: moduleFile(override, process.cwd()) ?? override };
  if (typeof agent !== 'string') return { kind: 'object', name: agent.name, configFiles };
  if (isBuiltinAgent(agent)) return { kind: 'builtin', name: agent };
  return { kind: 'module', module: isPathSpec(agent) ? agent : await resolveSpec(agent) };
}

/** An agent option or DESKBENCH_AGENT that cannot name an agent stops the run before any desktop starts. */
export function agentProblems(agent: ResolvedOptions['agent'], root: string): string | undefined {
  for (const [spec, where] of [[agent, 'agent'], [process.env.DESKBENCH_AGENT, 'DESKBENCH_AGENT']] as const) {
    const problem = typeof spec === 'string' && spec ? agentSpecProblem(spec, root) : undefined;
    if (problem) return `${where}: ${problem}`;
  }
  return undefined;
}
