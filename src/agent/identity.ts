// Which agent ran a task, precisely enough to run it again: its name, the module it came from with that file's
// sha256, and what its optional describe() reports (model names and parameters). The worker records it in each task
// test's meta; the reporter puts the run's agents in the run record (src/node/report/run-record.ts).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { moduleFile } from '../shared/module-spec.ts';
import type { Agent } from './types.ts';

export interface AgentIdentity {
  /** The agent's own name (Agent.name). */
  name: string;
  /**
   * Where it came from: a built-in's name (`builtin:scripted`), its module file relative to the vitest root, a
   * package specifier, or `object in <config file>` for an Agent object given in the options.
   */
  module: string;
  /** sha256 of that module file (of the config file, for an object): the file itself, not what it imports. */
  moduleSha256?: string;
  /** What describe() returned (secrets masked by the reporter). */
  description?: Record<string, unknown>;
  /** Why describe() failed, when it did: the task still runs. */
  describeError?: string;
}

/** `spec` is what chose the agent: a built-in name, a module path or specifier, or the config file of an object. */
export async function agentIdentity(agent: Agent, spec: { name: string } | { module: string } | { objectIn: string }, root: string): Promise<AgentIdentity> {
  let module: string;
  let file: string | undefined;
  if ('name' in spec) module = `builtin:${spec.name}`;
  else if ('objectIn' in spec) {
    file = spec.objectIn;
    module = `object in ${relative(root, file) || file}`;
  } else {
    file = moduleFile(spec.module, root);
    module = file ? relative(root, file) || file : spec.module;
  }
  const described = await describeAgent(agent);
  return { name: agent.name, module, ...(file ? sha256Of(file) : {}), ...described };
}

function sha256Of(file: string): { moduleSha256?: string } {
  try {
    return { moduleSha256: createHash('sha256').update(readFileSync(file)).digest('hex') };
  } catch {
    return {}; // a module resolved some other way (a package's entry): its name is recorded, not its hash
  }
}

async function describeAgent(agent: Agent): Promise<Pick<AgentIdentity, 'description' | 'describeError'>> {
  if (typeof agent.describe !== 'function') return {};
  try {
    const description = await agent.describe();
    // JSON only: the record is written as JSON, and a function or a class instance would not survive it.
    return description && typeof description === 'object' ? { description: JSON.parse(JSON.stringify(description)) } : {};
  } catch (error) {
    return { describeError: String((error as Error)?.message ?? error) };
  }
}
