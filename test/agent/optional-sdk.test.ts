// The model SDKs are optional: a missing one must fail the agent with the package to install, not a resolver stack.
import { describe, expect, it } from 'vitest';
import { importSdk } from '../../src/agent/agents/optional-sdk.ts';
import { AgentError } from '../../src/errors.ts';

describe('importSdk', () => {
  it('names the package to install when it is missing', async () => {
    const name = 'deskbench-no-such-sdk';
    const error = await importSdk(name, 'openai', () => import(name)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentError);
    expect((error as Error).message).toBe(`the openai agent needs the package ${name}, which is not installed: npm install ${name}`);
  });

  it('loads an installed SDK and passes other errors through', async () => {
    const sdk = await importSdk('openai', 'openai', () => import('openai'));
    expect(typeof sdk.default).toBe('function');
    await expect(importSdk('openai', 'openai', () => Promise.reject(new TypeError('boom')))).rejects.toThrow('boom');
  });
});
