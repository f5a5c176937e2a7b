import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { anthropicAgent, claudeDisplaySize } from '../../src/agent/agents/anthropic.ts';
import type { AnthropicAgentOptions } from '../../src/agent/agents/anthropic.ts';
import { AgentApiError, AgentRateLimitError, AgentResponseError, AgentTimeoutError } from '../../src/errors.ts';
import type { AgentContext } from '../../src/agent/types.ts';
import { screenshotPng, sizeOfBase64Image, startFakeApiServer } from './fake-api-server.ts';
import type { FakeApiServer } from './fake-api-server.ts';

const INSTRUCTION = 'Save the document.';

let server: FakeApiServer;
let screenshot: Buffer;
let logs: string[];

beforeAll(async () => { screenshot = await screenshotPng(1920, 1080); });
beforeEach(async () => { server = await startFakeApiServer(); logs = []; });
afterEach(async () => { await server.close(); });

type Block = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
let nextId = 0;

/** A tool_use content block as the Messages API returns it. */
function toolUse(input: Record<string, unknown>): Block {
  return { type: 'tool_use', id: `toolu_${String(++nextId).padStart(3, '0')}`, name: 'computer', input };
}

/** The Messages API reply shape (beta), with usage. */
function message(content: Block[], usage: Record<string, number> = { input_tokens: 2000, output_tokens: 50 }) {
  return {
    headers: { 'request-id': `req_${nextId}` },
    json: {
      id: `msg_${nextId}`, type: 'message', role: 'assistant', model: 'claude-test', content,
      stop_reason: content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn', stop_sequence: null,
      usage: { cache_creation_input_tokens: 0, cache_read_input_tokens: 0, ...usage },
    },
  };
}

function apiError(status: number, type: string, text: string, headers?: Record<string, string>) {
  return { status, headers, json: { type: 'error', error: { type, message: text } } };
}

function context(): AgentContext {
  return {
    taskId: 'task-1', domain: 'os', instruction: INSTRUCTION, observationType: 'screenshot',
    screen: { width: 1920, height: 1080 }, maxSteps: 15, log: (text) => logs.push(text),
  };
}

function agent(options: Partial<AnthropicAgentOptions> = {}) {
  const a = anthropicAgent({ model: 'claude-test', baseURL: server.url, apiKey: 'test-key', ...options });
  a.reset?.(context());
  return a;
}

const observation = () => ({ screenshot, instruction: INSTRUCTION });
const imagesIn = (blocks: Block[]): Block[] =>
  blocks.flatMap((b) => (b.type === 'image' ? [b] : b.type === 'tool_result' && Array.isArray(b.content) ? imagesIn(b.content) : []));
const allImages = (messages: Array<{ content: Block[] }>) => messages.flatMap((m) => (Array.isArray(m.content) ? imagesIn(m.content) : []));

async function failureOf(prediction: unknown): Promise<any> { // eslint-disable-line @typescript-eslint/no-explicit-any
  try {
    await prediction;
  } catch (error) {
    return error;
  }
  throw new Error('expected the prediction to fail');
}

describe('display size', () => {
  it('picks the recommended size of the same aspect ratio, else fits 1280×800', () => {
    expect(claudeDisplaySize({ width: 1920, height: 1080 })).toEqual({ width: 1366, height: 768 });
    expect(claudeDisplaySize({ width: 1920, height: 1200 })).toEqual({ width: 1280, height: 800 });
    expect(claudeDisplaySize({ width: 1600, height: 1200 })).toEqual({ width: 1024, height: 768 });
    expect(claudeDisplaySize({ width: 2560, height: 1080 })).toEqual({ width: 1280, height: 540 });
    expect(claudeDisplaySize({ width: 1024, height: 768 })).toEqual({ width: 1024, height: 768 });
  });
});

describe('anthropic agent: the tool_use / tool_result loop', () => {
  it('runs a task over several predict() calls, wiring each observation into the previous tool_use', async () => {
    const a = agent();
    const click = toolUse({ action: 'left_click', coordinate: [683, 384] });
    server.reply(message([{ type: 'text', text: 'I will click the centre.' }, click]));
    const first = await a.predict(INSTRUCTION, observation());

    // coordinates: 1366×768 display → 1920×1080 screen
    expect(first.actions).toEqual(['pyautogui.click(960, 540)']);
    expect(first.usage).toEqual({ input_tokens: 2000, output_tokens: 50, total_tokens: 2050 });
    expect(first.response).toContain('I will click the centre.');
    expect(first.response).toContain('"left_click"');

    const [req1] = server.requests;
    expect(req1.url.split('?')[0]).toBe('/v1/messages');
    expect(req1.headers['anthropic-beta']).toBe('computer-use-2025-01-24');
    expect(req1.headers.authorization ?? req1.headers['x-api-key']).toMatch(/test-key$/); // the SDK's auth header
    expect(req1.headers['anthropic-version']).toBeTruthy();
    expect(req1.body.model).toBe('claude-test');
    expect(req1.body.tools).toEqual([{ type: 'computer_20250124', name: 'computer', display_width_px: 1366, display_height_px: 768 }]);
    expect(req1.body.system).toContain('[INFEASIBLE]');
    expect(req1.body.messages).toHaveLength(1);
    const [text, image] = req1.body.messages[0].content;
    expect(text).toEqual({ type: 'text', text: INSTRUCTION });
    expect(image.source.media_type).toBe('image/png');
    expect(await sizeOfBase64Image(image.source.data)).toEqual({ width: 1366, height: 768 });

    // Step 2: the new screenshot answers the click; Claude saves with a shortcut and types.
    const save = toolUse({ action: 'key', text: 'ctrl+s' });
    const type = toolUse({ action: 'type', text: 'a<b' });
    server.reply(message([save, type]));
    const second = await a.predict(INSTRUCTION, observation());
    expect(second.actions).toEqual([
      "pyautogui.hotkey('ctrl', 's')",
      'pyautogui.typewrite(\'a\'); pyautogui.hotkey("shift", ","); pyautogui.typewrite(\'b\')',
    ]);
    const req2 = server.requests[1].body;
    expect(req2.messages.map((m: Block) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(req2.messages[1].content).toEqual([{ type: 'text', text: 'I will click the centre.' }, click]);
    const [result] = req2.messages[2].content;
    expect(result.type).toBe('tool_result');
    expect(result.tool_use_id).toBe(click.id);
    expect(imagesIn([result])).toHaveLength(1);

    // Step 3: one tool_result per call, the screenshot in the last; Claude only looks (answered at once), then ends.
    const look = toolUse({ action: 'screenshot' });
    server.reply(message([look], { input_tokens: 100, output_tokens: 5, cache_read_input_tokens: 1000 }));
    server.reply(message([{ type: 'text', text: 'The document is saved.' }], { input_tokens: 10, output_tokens: 7 }));
    const third = await a.predict(INSTRUCTION, observation());
    expect(third.actions).toEqual(['DONE']);
    expect(third.usage).toEqual({ input_tokens: 1110, output_tokens: 12, total_tokens: 1122 });
    expect(server.requests).toHaveLength(4);
    const [saveResult, typeResult] = server.requests[2].body.messages[4].content;
    expect(saveResult).toMatchObject({ type: 'tool_result', tool_use_id: save.id, content: [{ type: 'text', text: 'Done.' }] });
    expect(typeResult.tool_use_id).toBe(type.id);
    expect(imagesIn([typeResult])).toHaveLength(1);
    const lookResult = server.requests[3].body.messages.at(-1).content[0];
    expect(lookResult.tool_use_id).toBe(look.id);
    expect(imagesIn([lookResult])).toHaveLength(1);

    // After the end, the agent keeps answering DONE without calling the API.
    expect((await a.predict(INSTRUCTION, observation())).actions).toEqual(['DONE']);
    expect(server.requests).toHaveLength(4);
  });

  it('answers FAIL when Claude declares the task infeasible', async () => {
    server.reply(message([{ type: 'text', text: 'There is no such setting in this application.\n[INFEASIBLE]' }]));
    expect((await agent().predict(INSTRUCTION, observation())).actions).toEqual(['FAIL']);
  });

  it('keeps only the last K screenshots in the conversation', async () => {
    const a = agent({ keepScreenshots: 2 });
    for (let step = 0; step < 4; step++) {
      server.reply(message([toolUse({ action: 'key', text: 'Tab' })]));
      await a.predict(INSTRUCTION, observation());
    }
    const messages = server.requests[3].body.messages;
    expect(allImages(messages)).toHaveLength(2);
    expect(JSON.stringify(messages)).toContain('(older screenshot removed)');
    expect(imagesIn(messages.at(-1).content)).toHaveLength(1);
  });

  it('answers cursor_position and rejected calls itself, with is_error for the latter', async () => {
    const a = agent();
    server.reply(message([toolUse({ action: 'mouse_move', coordinate: [100, 100] })]));
    expect((await a.predict(INSTRUCTION, observation())).actions).toEqual(['pyautogui.moveTo(141, 141)']);
    const where = toolUse({ action: 'cursor_position' });
    const bad = toolUse({ action: 'key', text: 'Hyperdrive' });
    server.reply(message([where, bad]), message([{ type: 'text', text: 'Done.' }]));
    expect((await a.predict(INSTRUCTION, observation())).actions).toEqual(['DONE']);
    const results = server.requests[2].body.messages.at(-1).content as Block[];
    expect(results[0].tool_use_id).toBe(where.id);
    expect(results[0].content[0]).toEqual({ type: 'text', text: 'X=100,Y=100' });
    expect(imagesIn([results[0]])).toHaveLength(1);
    expect(results[1]).toMatchObject({ tool_use_id: bad.id, is_error: true });
    expect(results[1].content[0].text).toMatch(/unknown key name "Hyperdrive"/);
  });

  it('uses the newer tool version and its beta header when asked', async () => {
    server.reply(message([{ type: 'text', text: 'ok' }]));
    await agent({ toolType: 'computer_20251124', displaySize: { width: 1280, height: 720 } }).predict(INSTRUCTION, observation());
    const request = server.requests[0];
    expect(request.headers['anthropic-beta']).toBe('computer-use-2025-11-24');
    expect(request.body.tools[0]).toMatchObject({ type: 'computer_20251124', display_width_px: 1280, display_height_px: 720 });
  });
});

describe('anthropic agent: failures', () => {
  it('retries 429 and 529 (overloaded), honouring retry-after', async () => {
    server.reply(
      apiError(429, 'rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit', { 'retry-after': '0' }),
      apiError(529, 'overloaded_error', 'Overloaded', { 'retry-after-ms': '25' }),
      message([{ type: 'text', text: 'finished' }]),
    );
    expect((await agent().predict(INSTRUCTION, observation())).actions).toEqual(['DONE']);
    expect(server.requests).toHaveLength(3);
    expect(logs).toEqual([
      'anthropic: HTTP 429, retrying in 0 ms (retry 1 of 3)',
      'anthropic: HTTP 529, retrying in 25 ms (retry 2 of 3)',
    ]);
  });

  it('gives up on rate limits after maxRetries', async () => {
    const limited = apiError(429, 'rate_limit_error', 'slow down', { 'retry-after': '0' });
    server.reply(limited, limited);
    const error = await failureOf(agent({ maxRetries: 1 }).predict(INSTRUCTION, observation()));
    expect(error).toBeInstanceOf(AgentRateLimitError);
    expect(error.attempts).toBe(2);
  });

  it('throws at once on a 500', async () => {
    server.reply(apiError(500, 'api_error', 'Internal server error'));
    const error = await failureOf(agent().predict(INSTRUCTION, observation()));
    expect(error).toBeInstanceOf(AgentApiError);
    expect(error.message).toMatch(/^anthropic: HTTP 500: .*Internal server error/);
    expect(server.requests).toHaveLength(1);
  });

  it('throws on a malformed reply', async () => {
    server.reply({ json: { id: 'msg_1', type: 'message', role: 'assistant' } });
    await expect(agent().predict(INSTRUCTION, observation())).rejects.toThrow(AgentResponseError);
    server.reply({ raw: '<html>bad gateway</html' });
    await expect(agent().predict(INSTRUCTION, observation())).rejects.toThrow(/anthropic: malformed reply/);
  });

  it('ends a request that gets no answer with a timeout error', async () => {
    server.reply({ hang: true });
    const error = await failureOf(agent({ timeoutMs: 250 }).predict(INSTRUCTION, observation()));
    expect(error).toBeInstanceOf(AgentTimeoutError);
    expect(error.message).toBe('anthropic: no answer within 250 ms (timeout)');
  });

  it('stops when the task is aborted', async () => {
    server.reply({ hang: true });
    const controller = new AbortController();
    const a = anthropicAgent({ model: 'claude-test', baseURL: server.url, apiKey: 'k' });
    a.reset?.({ ...context(), signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(a.predict(INSTRUCTION, observation())).rejects.toThrow(/anthropic: request aborted/);
  });
});
