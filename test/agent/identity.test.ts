// What the run record says of an agent: where it came from with the file's hash, and what describe() reports — the
// built-in model agents describe their model and sampling, never their key.
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { anthropicAgent } from '../../src/agent/agents/anthropic.ts';
import { openaiAgent } from '../../src/agent/agents/openai.ts';
import { scriptedAgent } from '../../src/agent/agents/scripted.ts';
import { agentIdentity } from '../../src/agent/identity.ts';
import { defineAgent } from '../../src/agent/types.ts';

describe('agent identity', () => {
  test('a built-in by name; a module file relative to the root with its sha256 and its description', async () => {
    expect(await agentIdentity(scriptedAgent(), { name: 'scripted' }, '/p')).toEqual({ name: 'scripted', module: 'builtin:scripted' });
    const root = mkdtempSync(join(tmpdir(), 'deskbench-identity-'));
    const source = 'export default { name: "mine", predict: () => ({ actions: ["DONE"] }) };\n';
    writeFileSync(join(root, 'my-agent.ts'), source);
    const agent = defineAgent({ name: 'mine', predict: () => ({ actions: ['DONE'] }), describe: () => ({ model: 'm-1', temperature: 0, notJson: () => 1 }) });
    expect(await agentIdentity(agent, { module: './my-agent.ts' }, root)).toEqual({
      name: 'mine',
      module: 'my-agent.ts',
      moduleSha256: createHash('sha256').update(source).digest('hex'),
      description: { model: 'm-1', temperature: 0 },
    });
    expect(await agentIdentity(agent, { objectIn: join(root, 'vitest.config.ts') }, root)).toEqual(expect.objectContaining({ module: 'object in vitest.config.ts' }));
  });

  test('a describe() that throws is recorded, not fatal', async () => {
    const agent = defineAgent({ name: 'x', predict: () => ({ actions: [] }), describe: () => { throw new Error('no model yet'); } });
    expect(await agentIdentity(agent, { name: 'x' }, '/p')).toEqual({ name: 'x', module: 'builtin:x', describeError: 'no model yet' });
  });

  test('the model agents describe model, endpoint and sampling, and never the key', async () => {
    const openai = await openaiAgent({ model: 'gpt-4o', apiKey: 'sk-secret-key-123456', temperature: 0.2, baseURL: 'http://127.0.0.1:8000/v1' }).describe!();
    expect(openai).toMatchObject({ model: 'gpt-4o', baseURL: 'http://127.0.0.1:8000/v1', temperature: 0.2, maxTokens: 1500, actionSpace: 'pyautogui', systemPrompt: 'osworld' });
    const claude = await anthropicAgent({ model: 'claude-sonnet-4-5', apiKey: 'sk-ant-secret-123456', thinkingBudgetTokens: 2048 }).describe!();
    expect(claude).toMatchObject({ model: 'claude-sonnet-4-5', toolType: 'computer_20250124', maxTokens: 4096, thinkingBudgetTokens: 2048 });
    expect(JSON.stringify([openai, claude])).not.toMatch(/secret/);
  });
});
