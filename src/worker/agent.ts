// The agent of a task test, from the payload's AgentSpec: a built-in, a module (imported through vitest, like the
// config, so TypeScript works), or an Agent object of the config, found by evaluating the config files again.
import { findConfiguredAgent } from '../agent/configured.ts';
import type { agentIdentity } from '../agent/identity.ts';
import { loadAgent } from '../agent/resolve.ts';
import type { Agent } from '../agent/types.ts';
import type { AgentSpec } from '../contract/payload.ts';

/** import() through vitest's module runner, handed over by the generated test module. */
export type ImportModule = (id: string) => Promise<unknown>;

export function loadTaskAgent(spec: AgentSpec, agentOptions: Record<string, unknown>, importModule: ImportModule): Promise<Agent> {
  if (spec.kind === 'object') return findConfiguredAgent(spec.name, spec.configFiles, importModule);
  return loadAgent(spec.kind === 'builtin' ? spec.name : spec.module, agentOptions, process.cwd(), importModule);
}

/** Where the agent came from, for the run record. */
export function agentSource(spec: AgentSpec): Parameters<typeof agentIdentity>[1] {
  if (spec.kind === 'object') return { objectIn: spec.configFiles[0] ?? 'vitest config' };
  return spec.kind === 'builtin' ? { name: spec.name } : { module: spec.module };
}
