// Turns the `agent` option into an Agent: a built-in name, or a module whose default export is an Agent or a
// factory `(options) => Agent`.
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { isPathSpec, moduleFile } from '../shared/module-spec.ts';
import { Registry } from '../shared/registry.ts';
import { failAgent } from './agents/fail.ts';
import { noopAgent } from './agents/noop.ts';
import { scriptedAgent } from './agents/scripted.ts';
import type { Agent } from './types.ts';
import { OptionsError } from '../errors.ts';

type AgentFactory = (options: Record<string, unknown>) => Agent | Promise<Agent>;

/** The built-in agent names, as the `agent` option's type lists them. */
export type BuiltinAgentName = 'scripted' | 'noop' | 'fail' | 'openai' | 'anthropic';

/** The built-in agents by name, the same registry shape as metrics and getters (with the did-you-mean). */
const agents = new Registry<AgentFactory>('agent');
agents.define('scripted', (options) => scriptedAgent(options));
agents.define('noop', () => noopAgent());
agents.define('fail', () => failAgent());
// Model agents load their SDKs only when chosen.
agents.define('openai', async (options) => (await import('./agents/openai.ts')).openaiAgent(options as never));
agents.define('anthropic', async (options) => (await import('./agents/anthropic.ts')).anthropicAgent(options as never));

export function isBuiltinAgent(name: string): boolean {
  return agents.has(name);
}

/**
 * Why a spec cannot name an agent, checked in the main process before any desktop starts (undefined when it can):
 * a module file that does not exist, or a bare name that is neither built in nor a package (`'gpt'`). A scoped or
 * slashed package specifier is left to the import.
 */
export function agentSpecProblem(spec: string, root: string): string | undefined {
  if (agents.get(spec)) return undefined;
  const builtins = agents.names();
  const file = moduleFile(spec, root);
  if (file) return existsSync(file) ? undefined : `agent module ${file} does not exist (agent "${spec}", relative to ${root})`;
  if (isPathSpec(spec) || spec.includes('/') || spec.startsWith('@')) return undefined;
  return `unknown agent "${spec}": expected a built-in agent (${builtins.join(', ')}), a module path such as ./my-agent.ts, a package specifier, or an Agent object${agents.didYouMean(spec)}`;
}

/**
 * The agent a spec names. `importModule` imports a module file when the caller has a better way than this module's
 * own import() (the generated tests import through vitest, which transforms TypeScript as the project configures).
 */
export async function loadAgent(
  spec: string,
  options: Record<string, unknown> = {},
  root = process.cwd(),
  importModule?: (file: string) => Promise<unknown>,
): Promise<Agent> {
  const builtin = agents.get(spec);
  if (builtin) return builtin(options);
  const file = moduleFile(spec, root);
  const target = file ? pathToFileURL(file).href : spec;
  let module: { default?: unknown };
  try {
    module = (await (file && importModule ? importModule(file) : import(target))) as { default?: unknown };
  } catch (error) {
    throw new OptionsError(`agent "${spec}": not a built-in agent (${agents.names().join(', ')}) and ${target} could not be imported: ${(error as Error).message}`);
  }
  const exported = module.default;
  const agent = typeof exported === 'function' ? await (exported as (o: Record<string, unknown>) => Agent | Promise<Agent>)(options) : exported;
  if (!agent || typeof (agent as Agent).predict !== 'function') {
    throw new OptionsError(`agent module ${target}: its default export must be an Agent ({ name, predict }) or a function returning one`);
  }
  return agent as Agent;
}
