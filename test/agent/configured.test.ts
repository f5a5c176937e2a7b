// Agent objects in deskbench()'s options: filed by name when a config is evaluated, found again in the worker.
import { describe, expect, it } from 'vitest';
import { findConfiguredAgent, isAgent, registerConfiguredAgent } from '../../src/agent/configured.ts';
import { resolveOptions } from '../../src/node/plugin/options.ts';

const agentNamed = (name: string) => ({ name, predict: () => ({ actions: ['DONE'] }) });

describe('agent objects of the config', () => {
  it('are found by name once the config file registered them', async () => {
    const agent = agentNamed('configured-test-a');
    const imported: string[] = [];
    const importModule = async (id: string) => {
      imported.push(id);
      return { default: { plugins: [registerConfiguredAgent(agent)] } };
    };
    expect(await findConfiguredAgent('configured-test-a', ['/p/vitest.config.ts'], importModule)).toBe(agent);
    // Already registered in this worker: the config is not evaluated again.
    expect(await findConfiguredAgent('configured-test-a', ['/p/vitest.config.ts'], importModule)).toBe(agent);
    expect(imported).toEqual(['/p/vitest.config.ts']);
  });

  it("tries an inline project's own config file, then the root one", async () => {
    const agent = agentNamed('configured-test-c');
    const imported: string[] = [];
    const importModule = async (id: string) => {
      imported.push(id);
      if (id === '/p/vitest.config.ts') registerConfiguredAgent(agent);
      return { default: {} };
    };
    expect(await findConfiguredAgent('configured-test-c', ['/p/shared.config.ts', '/p/vitest.config.ts'], importModule)).toBe(agent);
    expect(imported).toEqual(['/p/shared.config.ts', '/p/vitest.config.ts']);
  });

  it('a config that exports a function is called, as vitest calls it', async () => {
    const agent = agentNamed('configured-test-b');
    const seen: unknown[] = [];
    const importModule = async () => ({
      default: (env: unknown) => {
        seen.push(env);
        registerConfiguredAgent(agent);
        return {};
      },
    });
    expect(await findConfiguredAgent('configured-test-b', ['/p/vitest.config.ts'], importModule)).toBe(agent);
    expect(seen).toEqual([{ command: 'serve', mode: 'test' }]);
  });

  it('an agent the config does not register, or a config that throws, is a clear error naming it and the file', async () => {
    await expect(findConfiguredAgent('configured-test-missing', ['/p/vitest.config.ts'], async () => ({ default: {} }))).rejects.toThrow(
      'agent "configured-test-missing" was given as an object in the deskbench() options, but evaluating /p/vitest.config.ts in the test worker did not register it',
    );
    await expect(findConfiguredAgent('configured-test-missing', [])).rejects.toThrow('the vitest config has no file to evaluate in the test worker');
    const throwing = async () => {
      throw new Error('SECRET is not set');
    };
    await expect(findConfiguredAgent('configured-test-missing', ['/p/vitest.config.ts'], throwing)).rejects.toThrow(
      'agent "configured-test-missing": evaluating /p/vitest.config.ts in the test worker, to find the agent object given to deskbench(), failed: SECRET is not set',
    );
  });

  it('the option accepts a name, a path or an Agent object, and names what it expected otherwise', () => {
    const agent = agentNamed('x');
    expect(resolveOptions({ tasks: 'a', agent }).agent).toBe(agent);
    expect(resolveOptions({ tasks: 'a', agent: 'fail' }).agent).toBe('fail');
    expect(isAgent({ name: '', predict() {} })).toBe(false);
    expect(() => resolveOptions({ tasks: 'a', agent: { name: 'x' } as never })).toThrow(
      'deskbench(): invalid option agent: expected `agent`: a built-in agent name, a module path, or an Agent object ({ name, predict })',
    );
  });
});
