// An agent backed by Claude's computer-use tool (Anthropic Messages API, beta). The conversation is one long
// tool_use / tool_result exchange spread over predict() calls: the tool calls of one answer become this step's
// actions, and the next observation's screenshot becomes the tool_result of the last of them. Calls that need no
// desktop action (screenshot, cursor_position, a rejected call) are answered at once, inside the same predict().
// The turn ends with DONE when Claude stops calling tools, or FAIL when its final text ends in [INFEASIBLE].

import type Anthropic from '@anthropic-ai/sdk';
import type {
  BetaContentBlockParam, BetaImageBlockParam, BetaMessage, BetaMessageParam, BetaTextBlockParam, BetaToolResultBlockParam,
} from '@anthropic-ai/sdk/resources/beta/messages/messages';
import type { Action, Agent, AgentContext, Observation, Prediction, TokenUsage } from '../types.ts';
import { linearizeAndTrim } from '../a11y-linearize.ts';
import { claudeSystemPrompt, INFEASIBLE_MARKER } from '../prompts/claude.ts';
import type { ClaudePromptInput } from '../prompts/claude.ts';
import { AgentResponseError } from '../../errors.ts';
import { importSdk } from './optional-sdk.ts';
import { requestWithRetries } from './request-retries.ts';
import { computerToolCall } from './claude-computer-tool.ts';
import { CoordinateMapper, fitWithin, imageSize, resizePng } from './screen-scaling.ts';
import type { Size } from './screen-scaling.ts';

/** Tool versions and the beta header each needs. */
export const COMPUTER_TOOL_BETAS = {
  computer_20250124: 'computer-use-2025-01-24',
  computer_20251124: 'computer-use-2025-11-24',
} as const;
export type ComputerToolType = keyof typeof COMPUTER_TOOL_BETAS;

export interface AnthropicAgentOptions {
  /** e.g. "claude-sonnet-4-5". */
  model: string;
  /** Shown in results. Default "anthropic:<model>". */
  name?: string;
  /** Default: env ANTHROPIC_API_KEY. */
  apiKey?: string;
  /** Default: env ANTHROPIC_BASE_URL, else Anthropic's. */
  baseURL?: string;
  /** Default "computer_20250124" (Claude 4 / Sonnet 3.7); "computer_20251124" for the models that take it. */
  toolType?: ComputerToolType;
  /**
   * The display size Claude is told about and sees screenshots at. Default: the screen downscaled to the
   * recommended size of the same aspect ratio (XGA 1024×768, WXGA 1280×800, FWXGA 1366×768), else to fit
   * 1280×800. Its coordinates are mapped back to screen pixels.
   */
  displaySize?: Size;
  /** Screenshots kept in the conversation (older ones become a text placeholder). Default 3. */
  keepScreenshots?: number;
  /** Also send the linearised accessibility tree when the task's observation type includes it. Default true. */
  useAccessibilityTree?: boolean;
  a11yMaxTokens?: number;
  /** Default 4096. */
  maxTokens?: number;
  temperature?: number;
  /** Extended thinking budget in tokens (off when unset). */
  thinkingBudgetTokens?: number;
  /** API calls one predict() may make while Claude only looks (screenshot, cursor_position). Default 5. */
  maxCallsPerStep?: number;
  /** The desktop user's sudo password, told to Claude. Default "password". */
  password?: string;
  /** Deadline of one request, ms. Default 180,000. */
  timeoutMs?: number;
  /** Retries after HTTP 429 / 529. Default 3. */
  maxRetries?: number;
  /** Longest wait before a retry, ms. Default 60,000. */
  maxRetryWaitMs?: number;
  systemPrompt?: (input: ClaudePromptInput) => string;
}

const SCALING_TARGETS: Size[] = [
  { width: 1024, height: 768 }, // XGA 4:3
  { width: 1280, height: 800 }, // WXGA 16:10
  { width: 1366, height: 768 }, // FWXGA ~16:9
];

/** The display size Claude works in for a screen: a recommended size of the same aspect, else fit 1280×800. */
export function claudeDisplaySize(screen: Size): Size {
  const ratio = screen.width / screen.height;
  const target = SCALING_TARGETS.find((t) => Math.abs(t.width / t.height - ratio) < 0.02 && t.width < screen.width);
  return target ?? fitWithin(screen, { width: 1280, height: 800 });
}

interface PendingCall {
  id: string;
  /** Text of the tool_result (the screenshot is added to the last call only). */
  text?: string;
  isError?: boolean;
}

const OMITTED_SCREENSHOT: BetaTextBlockParam = { type: 'text', text: '(older screenshot removed)' };

/** An Agent driving Claude's computer-use tool. One instance runs one task at a time. */
export function anthropicAgent(options: AnthropicAgentOptions): Agent {
  const toolType = options.toolType ?? 'computer_20250124';
  const keepScreenshots = Math.max(1, options.keepScreenshots ?? 3);
  const timeoutMs = options.timeoutMs ?? 180_000;
  let client: Promise<Anthropic> | undefined;
  const anthropic = () =>
    (client ??= importSdk('@anthropic-ai/sdk', 'anthropic', () => import('@anthropic-ai/sdk')).then(({ default: AnthropicClient }) => new AnthropicClient({
      apiKey: options.apiKey ?? process.env.ANTHROPIC_API_KEY ?? null,
      baseURL: options.baseURL ?? process.env.ANTHROPIC_BASE_URL ?? undefined,
      maxRetries: 0, // retries are ours: 429 / 529 only, bounded, honouring retry-after
      timeout: timeoutMs,
    })));

  let context: AgentContext | undefined;
  let messages: BetaMessageParam[] = [];
  let pending: PendingCall[] = [];
  let finished: 'DONE' | 'FAIL' | undefined;
  let cursor: { x: number; y: number } | undefined;

  return {
    name: options.name ?? `anthropic:${options.model}`,

    // For the run record: what decides Claude's answers (never the key).
    describe: () => ({
      model: options.model,
      baseURL: options.baseURL ?? process.env.ANTHROPIC_BASE_URL ?? null,
      toolType,
      displaySize: options.displaySize ?? null,
      keepScreenshots,
      useAccessibilityTree: options.useAccessibilityTree ?? true,
      maxTokens: options.maxTokens ?? 4096,
      temperature: options.temperature ?? null,
      thinkingBudgetTokens: options.thinkingBudgetTokens ?? null,
      systemPrompt: options.systemPrompt ? 'custom' : 'claude',
    }),

    reset(ctx) {
      context = ctx;
      messages = [];
      pending = [];
      finished = undefined;
      cursor = undefined;
    },

    async predict(instruction: string, observation: Observation): Promise<Prediction> {
      if (finished) return { actions: [finished] };
      const screen = observation.screenshot ? await imageSize(observation.screenshot) : context?.screen ?? { width: 1920, height: 1080 };
      const display = options.displaySize ?? claudeDisplaySize(screen);
      const mapper = new CoordinateMapper(display, screen);
      const observationBlocks = await observationContent(observation, screen, display);

      if (messages.length === 0) {
        messages.push({ role: 'user', content: [{ type: 'text', text: instruction }, ...observationBlocks] });
      } else {
        messages.push({ role: 'user', content: toolResults(pending, observationBlocks) });
      }
      pending = [];

      const usage: TokenUsage = { input_tokens: 0, output_tokens: 0, total_tokens: 0 };
      const responses: string[] = [];
      const maxCalls = Math.max(1, options.maxCallsPerStep ?? 5);
      for (let call = 1; ; call++) {
        keepLastScreenshots(messages, keepScreenshots);
        const reply = await callClaude(display);
        addUsage(usage, reply);
        messages.push({ role: 'assistant', content: reply.content as BetaContentBlockParam[] });

        const texts = reply.content.filter((block) => block.type === 'text').map((block) => (block as { text: string }).text);
        const toolUses = reply.content.filter((block) => block.type === 'tool_use') as Array<{ id: string; name: string; input: unknown }>;
        responses.push(describeReply(texts, toolUses));

        if (toolUses.length === 0) {
          finished = texts.join('\n').includes(INFEASIBLE_MARKER) ? 'FAIL' : 'DONE';
          return { response: responses.join('\n'), actions: [finished], usage };
        }

        const actions: Action[] = [];
        for (const use of toolUses) {
          if (typeof use.id !== 'string') throw new AgentResponseError('anthropic', 'a tool_use block has no id');
          if (use.name !== 'computer' || typeof use.input !== 'object' || use.input === null) {
            pending.push({ id: use.id, text: `Error: unknown tool ${JSON.stringify(use.name)}; only "computer" exists`, isError: true });
            continue;
          }
          const outcome = computerToolCall(use.input as Record<string, unknown>, mapper, cursor);
          if (outcome.kind === 'code') {
            actions.push(outcome.code);
            if (outcome.cursor) cursor = outcome.cursor;
            pending.push({ id: use.id });
          } else if (outcome.kind === 'reply') {
            pending.push({ id: use.id, text: outcome.text, isError: outcome.isError });
          } else {
            pending.push({ id: use.id });
          }
        }
        if (actions.length > 0 || call >= maxCalls) {
          return { response: responses.join('\n'), actions, usage };
        }
        // Claude only looked or erred: answer with the screen as it is and ask again.
        messages.push({ role: 'user', content: toolResults(pending, observationBlocks) });
        pending = [];
      }
    },
  };

  async function callClaude(display: Size): Promise<BetaMessage> {
    const api = await anthropic();
    const reply = await requestWithRetries({
      provider: 'anthropic',
      timeoutMs,
      maxRetries: options.maxRetries,
      maxRetryWaitMs: options.maxRetryWaitMs,
      signal: context?.signal,
      log: context?.log,
    }, (signal) => api.beta.messages.create({
      model: options.model,
      max_tokens: options.maxTokens ?? 4096,
      system: (options.systemPrompt ?? claudeSystemPrompt)({ password: options.password ?? 'password' }),
      messages,
      tools: [{ type: toolType, name: 'computer', display_width_px: display.width, display_height_px: display.height }],
      betas: [COMPUTER_TOOL_BETAS[toolType]],
      ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
      ...(options.thinkingBudgetTokens ? { thinking: { type: 'enabled' as const, budget_tokens: options.thinkingBudgetTokens } } : {}),
    }, { signal }));
    if (!reply || typeof reply !== 'object' || !Array.isArray((reply as { content?: unknown }).content)) {
      throw new AgentResponseError('anthropic', `no content list in the reply: ${preview(reply)}`);
    }
    return reply;
  }

  async function observationContent(observation: Observation, screen: Size, display: Size): Promise<Array<BetaTextBlockParam | BetaImageBlockParam>> {
    const blocks: Array<BetaTextBlockParam | BetaImageBlockParam> = [];
    const type = context?.observationType ?? 'screenshot';
    if ((options.useAccessibilityTree ?? true) && type !== 'screenshot' && observation.accessibilityTree) {
      try {
        const tree = linearizeAndTrim(observation.accessibilityTree, options.a11yMaxTokens ?? 10_000);
        blocks.push({ type: 'text', text: `Accessibility tree of the screen (screen pixels, not display pixels):\n${tree}` });
      } catch (error) {
        context?.log(`anthropic agent: accessibility tree skipped: ${(error as Error).message}`);
      }
    }
    if (observation.screenshot) {
      const png = await resizePng(observation.screenshot, screen, display);
      blocks.push({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: png.toString('base64') } });
    }
    return blocks;
  }
}

export default anthropicAgent;

/**
 * One tool_result per pending call; the last successful call carries the current observation (or, when every
 * call failed, the observation follows the results in the same user message).
 */
function toolResults(pending: PendingCall[], observation: Array<BetaTextBlockParam | BetaImageBlockParam>): BetaContentBlockParam[] {
  const carrier = pending.findLastIndex((call) => !call.isError);
  const results: BetaContentBlockParam[] = pending.map((call, i): BetaToolResultBlockParam => {
    const content: Array<BetaTextBlockParam | BetaImageBlockParam> = [];
    if (call.text) content.push({ type: 'text', text: call.text });
    if (i === carrier) content.push(...observation);
    if (content.length === 0) content.push({ type: 'text', text: 'Done.' });
    return { type: 'tool_result', tool_use_id: call.id, content, ...(call.isError ? { is_error: true } : {}) };
  });
  return carrier < 0 ? [...results, ...observation] : results;
}

/** Replace all but the last `keep` screenshots of the conversation by a short text, to bound its size. */
function keepLastScreenshots(messages: BetaMessageParam[], keep: number): void {
  let seen = 0;
  for (let m = messages.length - 1; m >= 0; m--) {
    const content = messages[m].content;
    if (!Array.isArray(content)) continue;
    for (let b = content.length - 1; b >= 0; b--) {
      const block = content[b];
      if (block.type === 'image') {
        if (++seen > keep) content[b] = OMITTED_SCREENSHOT;
      } else if (block.type === 'tool_result' && Array.isArray(block.content)) {
        for (let c = block.content.length - 1; c >= 0; c--) {
          if (block.content[c].type === 'image' && ++seen > keep) block.content[c] = OMITTED_SCREENSHOT;
        }
      }
    }
  }
}

function addUsage(total: TokenUsage, reply: BetaMessage): void {
  const u = reply.usage as Partial<BetaMessage['usage']> | undefined;
  if (!u) return;
  const input = (u.input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0);
  total.input_tokens += input;
  total.output_tokens += u.output_tokens ?? 0;
  total.total_tokens += input + (u.output_tokens ?? 0);
}

function describeReply(texts: string[], toolUses: Array<{ name: string; input: unknown }>): string {
  return [...texts, ...toolUses.map((use) => `[${use.name} ${JSON.stringify(use.input)}]`)].join('\n');
}

function preview(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}
