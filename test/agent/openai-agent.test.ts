import { readFileSync } from 'node:fs';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openaiAgent } from '../../src/agent/agents/openai.ts';
import type { OpenAIAgentOptions } from '../../src/agent/agents/openai.ts';
import { AgentApiError, AgentRateLimitError, AgentResponseError, AgentTimeoutError } from '../../src/errors.ts';
import type { AgentContext, ObservationType } from '../../src/agent/types.ts';
import { screenshotPng, sizeOfBase64Image, startFakeApiServer } from './fake-api-server.ts';
import type { FakeApiServer } from './fake-api-server.ts';

const INSTRUCTION = 'Open the terminal.';
const a11yXml = readFileSync(new URL('./fixtures/a11y-tree.xml', import.meta.url), 'utf8');

let server: FakeApiServer;
let screenshot: Buffer;
let logs: string[];

beforeAll(async () => { screenshot = await screenshotPng(1920, 1080); });
beforeEach(async () => { server = await startFakeApiServer(); logs = []; });
afterEach(async () => { await server.close(); });

/** OpenAI's chat-completions reply shape. */
function completion(content: string | null, usage = { prompt_tokens: 1200, completion_tokens: 30, total_tokens: 1230 }) {
  return {
    json: {
      id: 'chatcmpl-1', object: 'chat.completion', created: 1_700_000_000, model: 'test-model',
      choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, logprobs: null, finish_reason: 'stop' }],
      usage,
    },
  };
}

function openaiError(status: number, message: string, type: string, headers?: Record<string, string>) {
  return { status, headers, json: { error: { message, type, param: null, code: null } } };
}

function context(observationType: ObservationType = 'screenshot'): AgentContext {
  return {
    taskId: 'task-1', domain: 'os', instruction: INSTRUCTION, observationType,
    screen: { width: 1920, height: 1080 }, maxSteps: 15, log: (message) => logs.push(message),
  };
}

function agent(options: Partial<OpenAIAgentOptions> = {}, observationType?: ObservationType) {
  const a = openaiAgent({ model: 'test-model', baseURL: `${server.url}/v1`, apiKey: 'test-key', ...options });
  a.reset?.(context(observationType));
  return a;
}

/** The error a prediction fails with (a prediction that succeeds fails the test). */
async function failureOf(prediction: unknown): Promise<any> { // eslint-disable-line @typescript-eslint/no-explicit-any
  try {
    await prediction;
  } catch (error) {
    return error;
  }
  throw new Error('expected the prediction to fail');
}

type Part = { type: string; text?: string; image_url?: { url: string; detail?: string } };
const images = (messages: Array<{ content: string | Part[] }>) =>
  messages.flatMap((m) => (Array.isArray(m.content) ? m.content.filter((p) => p.type === 'image_url') : []));

describe('openai agent: requests and answers', () => {
  it('sends the system prompt, the screenshot and the model; returns the code block and the usage', async () => {
    server.reply(completion('The terminal icon is in the dock.\n```python\npyautogui.click(100, 200)\n```'));
    const prediction = await agent().predict(INSTRUCTION, { screenshot, instruction: INSTRUCTION });

    expect(prediction.actions).toEqual(['pyautogui.click(100, 200)']);
    expect(prediction.response).toContain('terminal icon');
    expect(prediction.usage).toEqual({ input_tokens: 1200, output_tokens: 30, total_tokens: 1230 });

    const [request] = server.requests;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBe('Bearer test-key');
    expect(request.body.model).toBe('test-model');
    expect(request.body.max_tokens).toBe(1500);
    expect(request.body.temperature).toBeUndefined();
    const [system, user] = request.body.messages;
    expect(system.role).toBe('system');
    expect(system.content).toContain('pyautogui');
    expect(system.content).toContain(`You are asked to complete the following task: ${INSTRUCTION}`);
    expect(system.content).toContain('1920×1080');
    expect(user.role).toBe('user');
    const [image] = images([user]);
    expect(image.image_url!.detail).toBe('high');
    expect(image.image_url!.url.startsWith('data:image/png;base64,')).toBe(true);
    expect(Buffer.from(image.image_url!.url.split(',')[1], 'base64').equals(screenshot)).toBe(true);
  });

  it('keeps the last K screenshots and every earlier answer', async () => {
    const a = agent({ keepScreenshots: 2 });
    for (let step = 1; step <= 4; step++) {
      server.reply(completion(`step ${step}\n\`\`\`python\npyautogui.press('tab')\n\`\`\``));
      await a.predict(INSTRUCTION, { screenshot, instruction: INSTRUCTION });
    }
    const messages = server.requests[3].body.messages as Array<{ role: string; content: string | Part[] }>;
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user', 'assistant', 'user', 'assistant', 'user']);
    expect(images(messages)).toHaveLength(2);
    expect(images(messages.slice(5))).toHaveLength(2); // the previous turn's and the current one
    expect((messages[1].content as Part[])[0].text).toMatch(/earlier observation/);
    expect(messages.filter((m) => m.role === 'assistant').map((m) => (m.content as string).split('\n')[0])).toEqual(['step 1', 'step 2', 'step 3']);
    expect(images(server.requests[0].body.messages)).toHaveLength(1);
    expect(images(server.requests[1].body.messages)).toHaveLength(2);
  });

  it('downscales screenshots and maps the answer’s coordinates back to screen pixels', async () => {
    server.reply(completion('```python\npyautogui.click(480, 270)\npyautogui.dragTo(x=100, y=50.5, duration=1)\npyautogui.typewrite("click(1, 2)")\n```'));
    const prediction = await agent({ maxScreenshotSize: { width: 960, height: 600 } }).predict(INSTRUCTION, { screenshot, instruction: INSTRUCTION });
    const [image] = images(server.requests[0].body.messages);
    expect(await sizeOfBase64Image(image.image_url!.url)).toEqual({ width: 960, height: 540 });
    expect(server.requests[0].body.messages[0].content).toContain('960×540');
    expect(prediction.actions).toEqual(['pyautogui.click(960, 540)\npyautogui.dragTo(x=200, y=101, duration=1)\npyautogui.typewrite("click(1, 2)")']);
  });

  it('computer_13: reads ```json actions, maps their coordinates, drops invalid ones and tells the model', async () => {
    server.reply(completion('```json\n{"action_type": "CLICK", "x": 480, "y": 270}\n```\n```json\n{"action_type": "PRESS", "key": "enterr"}\n```'));
    server.reply(completion('```DONE```'));
    const a = agent({ actionSpace: 'computer_13', maxScreenshotSize: { width: 960, height: 540 } });
    const first = await a.predict(INSTRUCTION, { screenshot, instruction: INSTRUCTION });
    expect(first.actions).toEqual([{ action_type: 'CLICK', x: 960, y: 540 }]);
    expect(server.requests[0].body.messages[0].content).toContain('"action_type"');
    const second = await a.predict(INSTRUCTION, { screenshot, instruction: INSTRUCTION });
    expect(second.actions).toEqual(['DONE']);
    const lastUser = server.requests[1].body.messages.at(-1).content as Part[];
    expect(lastUser[0].text).toContain('PRESS: key "enterr" is not a pyautogui key name');
    expect(logs.join('\n')).toContain('enterr');
  });

  it('understands WAIT / DONE / FAIL alone, in a block, or after code', async () => {
    const a = agent();
    const answers: Array<[string, unknown[]]> = [
      ['DONE', ['DONE']],
      ['The task is impossible.\n```FAIL```', ['FAIL']],
      ['```\nWAIT\n```', ['WAIT']],
      ['```python\npyautogui.hotkey("ctrl", "s")\nDONE\n```', ['pyautogui.hotkey("ctrl", "s")', 'DONE']],
      ['I am not sure what to do.', []],
    ];
    for (const [answer, actions] of answers) {
      server.reply(completion(answer));
      expect((await a.predict(INSTRUCTION, { screenshot, instruction: INSTRUCTION })).actions).toEqual(actions);
    }
  });

  it('a11y_tree observation: sends the linearised tree and no image', async () => {
    server.reply(completion('```python\npyautogui.click(350, 25)\n```'));
    await agent({}, 'a11y_tree').predict(INSTRUCTION, { screenshot, accessibilityTree: a11yXml, instruction: INSTRUCTION });
    const messages = server.requests[0].body.messages;
    expect(images(messages)).toHaveLength(0);
    const text = messages[1].content[0].text as string;
    expect(text).toContain('tag\tname\ttext\tclass\tdescription\tposition (top-left x&y)\tsize (w&h)');
    expect(text).toContain('entry\tSearch\ta<b\t\t\t(200, 10)\t(300, 30)');
    expect(messages[0].content).toContain('You do not see the screen itself');
  });

  it('passes temperature, top_p, max_completion_tokens and extra body fields when set', async () => {
    server.reply(completion('DONE'));
    await agent({ temperature: 0.2, topP: 0.9, maxTokens: 99, maxTokensParameter: 'max_completion_tokens', extraBody: { seed: 7 } })
      .predict(INSTRUCTION, { screenshot, instruction: INSTRUCTION });
    const body = server.requests[0].body;
    expect(body).toMatchObject({ temperature: 0.2, top_p: 0.9, max_completion_tokens: 99, seed: 7 });
    expect(body.max_tokens).toBeUndefined();
  });
});

describe('openai agent: failures', () => {
  it('retries a 429, honouring retry-after-ms', async () => {
    server.reply(openaiError(429, 'Rate limit reached', 'requests', { 'retry-after-ms': '30' }), completion('DONE'));
    const prediction = await agent().predict(INSTRUCTION, { screenshot, instruction: INSTRUCTION });
    expect(prediction.actions).toEqual(['DONE']);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1].body).toEqual(server.requests[0].body);
    expect(logs).toContain('openai: HTTP 429, retrying in 30 ms (retry 1 of 3)');
  });

  it('caps the wait retry-after asks for, and gives up after maxRetries with a rate-limit error', async () => {
    const tooLong = openaiError(429, 'Rate limit reached', 'requests', { 'retry-after': '3600' });
    server.reply(tooLong, tooLong, tooLong);
    const error = await failureOf(agent({ maxRetries: 2, maxRetryWaitMs: 20 }).predict(INSTRUCTION, { screenshot, instruction: INSTRUCTION }));
    expect(error).toBeInstanceOf(AgentRateLimitError);
    expect(error.message).toMatch(/openai: still rate limited \(HTTP 429\) after 3 attempts/);
    expect(server.requests).toHaveLength(3);
    expect(logs.filter((line) => line.includes('retrying in 20 ms'))).toHaveLength(2);
  });

  it('throws at once on a 500, naming the status and the API message', async () => {
    server.reply(openaiError(500, 'The server had an error while processing your request.', 'server_error'));
    const error = await failureOf(agent().predict(INSTRUCTION, { screenshot, instruction: INSTRUCTION }));
    expect(error).toBeInstanceOf(AgentApiError);
    expect(error.status).toBe(500);
    expect(error.message).toMatch(/^openai: HTTP 500: .*server had an error/);
    expect(server.requests).toHaveLength(1);
  });

  it('throws on a malformed reply: a body that is not JSON, or JSON without choices', async () => {
    server.reply({ raw: '{"id": "chatcmpl-1", "choices": [' });
    await expect(agent().predict(INSTRUCTION, { screenshot, instruction: INSTRUCTION })).rejects.toThrow(AgentResponseError);
    server.reply({ json: { id: 'x', object: 'chat.completion' } });
    await expect(agent().predict(INSTRUCTION, { screenshot, instruction: INSTRUCTION })).rejects.toThrow(/openai: malformed reply: no choices in the reply/);
  });

  it('ends a request that gets no answer with a timeout error', async () => {
    server.reply({ hang: true });
    const error = await failureOf(agent({ timeoutMs: 300 }).predict(INSTRUCTION, { screenshot, instruction: INSTRUCTION }));
    expect(error).toBeInstanceOf(AgentTimeoutError);
    expect(error.message).toBe('openai: no answer within 300 ms (timeout)');
    expect(server.requests).toHaveLength(1);
  });
});
