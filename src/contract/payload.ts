// The one value the main process hands the workers: vitest's provide/inject carries it over IPC (never to disk, so
// secrets may ride along). The plugin builds it (node/plugin/payload.ts), the global setup adds the warm pool's
// address, and every task test reads it (worker/runtime.ts). No option crosses any other way: not in the generated
// code, not in the environment.
import type { DesktopPoolAddress } from '../desktop/providers/provider.ts';
import type { RunOptions } from './run-options.ts';

export const PAYLOAD_KEY = 'deskbench:payload';

/**
 * How the worker gets the agent. An Agent object cannot cross as JSON: the worker evaluates the config files again,
 * which calls deskbench() again, which files the object under its name (agent/configured.ts).
 */
export type AgentSpec =
  | { kind: 'builtin'; name: string }
  /** A module file (absolute) or a package specifier, as the main process resolved it. */
  | { kind: 'module'; module: string }
  | { kind: 'object'; name: string; configFiles: string[] };

export interface WorkerPayload {
  /** The run's id: its containers' label (deskbench.run) and its summaries' run_id. */
  runId: string;
  /** The options of each task's run, defaults filled in and paths absolute. */
  run: RunOptions;
  agent: AgentSpec;
  /** Passed to an agent factory (API keys: masked wherever the worker writes). */
  agentOptions: Record<string, unknown>;
  /** Tests per task file (the repeats option). */
  repeats: number;
  /**
   * Task files whose shipped solution replaces their own (src/solutions/load.ts): the solution file, or null when a
   * solution variant was asked for and the task has none.
   */
  solutions: Record<string, string | null>;
  /** Task tests in the run (its task files, once file filters and --shard are applied, × repeats): the most desktops its warm pool starts. */
  taskRuns: number;
  /** The run's pool of warm desktops, when the global setup serves one. */
  pool?: DesktopPoolAddress;
}

declare module 'vitest' {
  interface ProvidedContext {
    'deskbench:payload': WorkerPayload;
  }
}
