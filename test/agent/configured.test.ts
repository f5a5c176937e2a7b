// Agent objects in deskbench()'s options: filed by name when the config is evaluated, found again in the worker.
import { describe, expect, it } from 'vitest';
import { findConfiguredAgent, isAgent, registerConfiguredAgent } from '../../src/agent/configured.ts';
import { resolveOptions } from '../../src/plugin/options.ts';

describe('agent objects of the config', () => {
  it('are found by name once the config file registered them', async () => {
    const agent = { name: 'configured-test-a', predict: () => ({ actions: ['DONE'] }) };
    let evaluated = 0;
    const load = async () => {
      evaluated++;
      return { default: { plugins: [registerConfiguredAgent(agent)] } };
    };
    expect(await findConfiguredAgent('configured-test-a', '/p/vitest.config.ts', load)).toBe(agent);
    // Already registered in this worker: the config is not evaluated again.
    expect(await findConfiguredAgent('configured-test-a', '/p/vitest.config.ts', load)).toBe(agent);
    expect(evaluated).toBe(1);
  });

  it('a config that exports a function is called, as vitest calls it', async () => {
    const agent = { name: 'configured-test-b', predict: () => ({ actions: ['DONE'] }) };
    const seen: unknown[] = [];
    const load = async () => ({
      default: (env: unknown) => {
        seen.push(env);
        registerConfiguredAgent(agent);
        return {};
      },
    });
    expect(await findConfiguredAgent('configured-test-b', '/p/vitest.config.ts', load)).toBe(agent);
    expect(seen).toEqual([{ command: 'serve', mode: 'test' }]);
  });

  it('an agent the config does not register is a clear error naming it and the file', async () => {
    await expect(findConfiguredAgent('configured-test-missing', '/p/vitest.config.ts', async () => ({ default: {} }))).rejects.toThrow(
      'agent "configured-test-missing" was given as an object in the deskbench() options, but evaluating /p/vitest.config.ts in the test worker did not register it',
    );
    await expect(findConfiguredAgent('configured-test-missing', undefined)).rejects.toThrow('the vitest config has no file to evaluate in the test worker');
  });

  it('the option accepts a name, a path or an Agent object, and names what it expected otherwise', () => {
    const agent = { name: 'x', predict: () => ({ actions: [] }) };
    expect(resolveOptions({ tasks: 'a', agent }).agent).toBe(agent);
    expect(resolveOptions({ tasks: 'a', agent: 'fail' }).agent).toBe('fail');
    expect(isAgent({ name: '', predict() {} })).toBe(false);
    expect(() => resolveOptions({ tasks: 'a', agent: { name: 'x' } as never })).toThrow(
      'deskbench(): invalid option agent: expected `agent`: a built-in agent name, a module path, or an Agent object ({ name, predict })',
    );
  });
});
