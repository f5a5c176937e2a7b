// Agents given as objects in deskbench()'s options. What reaches the test workers is JSON (src/contract/payload.ts),
// which cannot carry an object with methods. So deskbench() files each agent object here under its name, the payload
// names it, and the worker evaluates the vitest config file again (which calls deskbench() again) to find it.
import type { Agent } from './types.ts';
import { OptionsError } from '../errors.ts';

const REGISTRY = Symbol.for('deskbench.configuredAgents');

function registry(): Map<string, Agent> {
  const holder = globalThis as { [REGISTRY]?: Map<string, Agent> };
  return (holder[REGISTRY] ??= new Map());
}

export function isAgent(value: unknown): value is Agent {
  const agent = value as Agent | null;
  return typeof agent === 'object' && agent !== null && typeof agent.name === 'string' && agent.name !== '' && typeof agent.predict === 'function';
}

export function registerConfiguredAgent(agent: Agent): void {
  registry().set(agent.name, agent);
}

/**
 * The agent object named `name`, registered when a config file was evaluated in this worker. `importModule` imports a
 * config file; one that exports a function is called the way vitest calls it. The files are tried in order: an inline
 * project's own, then the root config.
 */
export async function findConfiguredAgent(name: string, configFiles: readonly string[], importModule?: (id: string) => Promise<unknown>): Promise<Agent> {
  for (const file of configFiles) {
    if (registry().has(name) || !importModule) break;
    try {
      const module = (await importModule(file)) as { default?: unknown };
      if (typeof module.default === 'function') await (module.default as (env: object) => unknown)({ command: 'serve', mode: 'test' });
    } catch (error) {
      throw new OptionsError(`agent "${name}": evaluating ${file} in the test worker, to find the agent object given to deskbench(), failed: ${(error as Error).message}`, { cause: error });
    }
  }
  const agent = registry().get(name);
  if (agent) return agent;
  const where = configFiles.length ? `evaluating ${configFiles.join(' and ')} in the test worker did not register it` : 'the vitest config has no file to evaluate in the test worker';
  throw new OptionsError(
    `agent "${name}" was given as an object in the deskbench() options, but ${where}. ` +
      `Create the agent object where the config file evaluates it (at its top level or in a module it imports), ` +
      `or give \`agent\` as a module path whose default export is the agent.`,
  );
}
