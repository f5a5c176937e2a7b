// An agent backed by any OpenAI-compatible chat-completions endpoint that accepts images (OpenAI, vLLM, SGLang,
// LiteLLM, OpenRouter, …), prompted the way OSWorld's mm_agents PromptAgent prompts: a system message with the
// action format and the task, the last few turns of observations and answers, and an answer in a fenced block
// (pyautogui code or computer_13 JSON) or one of WAIT / DONE / FAIL.

import type OpenAI from 'openai';
import type { ChatCompletionContentPart, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { Action, Agent, AgentContext, Observation, ObservationType, Prediction } from '../types.ts';
import { linearizeAndTrim } from '../a11y-linearize.ts';
import { specialActionType, toPyautoguiCode } from '../actions.ts';
import { OMITTED_OBSERVATION_TEXT, osworldSystemPrompt, osworldTurnText } from '../prompts/osworld.ts';
import type { ActionSpace, SystemPromptInput } from '../prompts/osworld.ts';
import { ActionError, AgentError, AgentResponseError } from '../../errors.ts';
import { importSdk } from './optional-sdk.ts';
import { requestWithRetries } from './request-retries.ts';
import { parseAnswer } from './parse-answer.ts';
import { CoordinateMapper, fitWithin, imageSize, mapComputer13Coordinates, mapPyautoguiCoordinates, resizePng } from './screen-scaling.ts';
import type { Size } from './screen-scaling.ts';

export interface OpenAIAgentOptions {
  /** Model name as the endpoint knows it, e.g. "gpt-4o" or "Qwen/Qwen2.5-VL-72B-Instruct". */
  model: string;
  /** Shown in results. Default "openai:<model>". */
  name?: string;
  /** Endpoint, e.g. "http://localhost:8000/v1". Default: env OPENAI_BASE_URL, else OpenAI's. */
  baseURL?: string;
  /** Default: env OPENAI_API_KEY (a placeholder is sent when neither is set, for local servers without keys). */
  apiKey?: string;
  /** "pyautogui" (code, the default) or "computer_13" (JSON actions). */
  actionSpace?: ActionSpace;
  /** What the model is shown. Default: the task's observation type (AgentContext.observationType). */
  observationType?: ObservationType;
  /** Screenshots sent per request, the current one included (older turns keep only their answers). Default 3. */
  keepScreenshots?: number;
  /**
   * Downscale screenshots to fit inside this size (aspect ratio kept). The model then answers in the smaller
   * image's pixels, and literal coordinates in its actions are mapped back to screen pixels. Default: no downscaling.
   */
  maxScreenshotSize?: Size;
  /** OpenAI's image `detail`. Default "high", as OSWorld sends. */
  imageDetail?: 'high' | 'low' | 'auto';
  /** Token budget of the linearised accessibility tree (estimated, see a11y-linearize.ts). Default 10,000. */
  a11yMaxTokens?: number;
  /** Default 1500 (OSWorld's PromptAgent). */
  maxTokens?: number;
  /** Some models (o-series, GPT-5) only take `max_completion_tokens`. Default "max_tokens". */
  maxTokensParameter?: 'max_tokens' | 'max_completion_tokens';
  /** Sent only when set (some models refuse any value but their default). */
  temperature?: number;
  topP?: number;
  /** The desktop user's sudo password, told to the model. Default "password" (OSWorld's). */
  password?: string;
  /** Deadline of one request, ms. Default 120,000. */
  timeoutMs?: number;
  /** Retries after HTTP 429. Default 3. */
  maxRetries?: number;
  /** Longest wait before a retry, ms (retry-after is honoured up to this). Default 60,000. */
  maxRetryWaitMs?: number;
  /** Extra fields merged into every request body (e.g. vendor options). */
  extraBody?: Record<string, unknown>;
  /** Replace the system prompt. */
  systemPrompt?: (input: SystemPromptInput) => string;
}

interface Turn {
  /** The observation part of the user message, while it is still sent. */
  text: string;
  image?: string;
  answer: string;
}

/** An Agent that asks an OpenAI-compatible chat endpoint for each step. One instance runs one task at a time. */
export function openaiAgent(options: OpenAIAgentOptions): Agent {
  const actionSpace = options.actionSpace ?? 'pyautogui';
  const keepScreenshots = Math.max(1, options.keepScreenshots ?? 3);
  const timeoutMs = options.timeoutMs ?? 120_000;
  let client: Promise<OpenAI> | undefined;
  const openai = () =>
    (client ??= importSdk('openai', 'openai', () => import('openai')).then(({ default: OpenAIClient }) => new OpenAIClient({
      apiKey: options.apiKey ?? process.env.OPENAI_API_KEY ?? 'unset',
      baseURL: options.baseURL ?? process.env.OPENAI_BASE_URL ?? undefined,
      maxRetries: 0, // retries are ours (requestWithRetries): 429 only, bounded, honouring retry-after
      timeout: timeoutMs,
    })));

  let context: AgentContext | undefined;
  let turns: Turn[] = [];
  let note: string | undefined;

  return {
    name: options.name ?? `openai:${options.model}`,

    // For the run record: what decides the model's answers (never the key).
    describe: () => ({
      model: options.model,
      baseURL: options.baseURL ?? process.env.OPENAI_BASE_URL ?? null,
      actionSpace,
      observationType: options.observationType ?? null,
      maxTokens: options.maxTokens ?? 1500,
      temperature: options.temperature ?? null,
      topP: options.topP ?? null,
      keepScreenshots,
      maxScreenshotSize: options.maxScreenshotSize ?? null,
      imageDetail: options.imageDetail ?? 'high',
      extraBody: options.extraBody ?? null,
      systemPrompt: options.systemPrompt ? 'custom' : 'osworld',
    }),

    reset(ctx) {
      context = ctx;
      turns = [];
      note = undefined;
    },

    async predict(instruction: string, observation: Observation): Promise<Prediction> {
      const observationType = options.observationType ?? context?.observationType ?? 'screenshot';
      const wantsScreenshot = observationType !== 'a11y_tree';
      const wantsTree = observationType !== 'screenshot';

      let image: string | undefined;
      let mapper: CoordinateMapper | undefined;
      let shownSize: Size = context?.screen ?? { width: 1920, height: 1080 };
      if (wantsScreenshot && observation.screenshot) {
        const screen = await imageSize(observation.screenshot);
        shownSize = options.maxScreenshotSize ? fitWithin(screen, options.maxScreenshotSize) : screen;
        mapper = new CoordinateMapper(shownSize, screen);
        image = `data:image/png;base64,${(await resizePng(observation.screenshot, screen, shownSize)).toString('base64')}`;
      }
      let tree: string | undefined;
      if (wantsTree && observation.accessibilityTree) {
        try {
          tree = linearizeAndTrim(observation.accessibilityTree, options.a11yMaxTokens ?? 10_000);
        } catch (error) {
          context?.log(`openai agent: accessibility tree skipped: ${(error as Error).message}`);
        }
      }

      const system = (options.systemPrompt ?? osworldSystemPrompt)({
        observationType, actionSpace, imageSize: shownSize, password: options.password ?? 'password', instruction,
      });
      const current: Turn = { text: osworldTurnText(observationType, tree, note), image, answer: '' };
      const messages = buildMessages(system, turns, current, keepScreenshots, options.imageDetail ?? 'high');

      const body: Record<string, unknown> = {
        model: options.model,
        messages,
        [options.maxTokensParameter ?? 'max_tokens']: options.maxTokens ?? 1500,
        ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
        ...(options.topP !== undefined ? { top_p: options.topP } : {}),
        ...options.extraBody,
      };
      const api = await openai();
      const completion = await requestWithRetries({
        provider: 'openai',
        timeoutMs,
        maxRetries: options.maxRetries,
        maxRetryWaitMs: options.maxRetryWaitMs,
        signal: context?.signal,
        log: context?.log,
      }, (signal) => api.chat.completions.create(body as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming, { signal }));

      const answer = answerText(completion);
      const parsed = parseAnswer(answer, actionSpace);
      const actions: Action[] = [];
      const problems = [...parsed.problems];
      for (const action of parsed.actions) {
        if (specialActionType(action)) { actions.push(action); continue; }
        if (typeof action === 'string') {
          actions.push(mapper ? mapPyautoguiCoordinates(action, mapper) : action);
          continue;
        }
        const mapped = mapper ? mapComputer13Coordinates(action, mapper) : action;
        try {
          toPyautoguiCode(mapped); // validate now, so a bad action is reported to the model, not run
          actions.push(mapped);
        } catch (error) {
          if (!(error instanceof ActionError)) throw error;
          problems.push(error.message);
        }
      }
      for (const problem of problems) context?.log(`openai agent: ${problem}`);
      note = problems.length > 0 ? `Your previous answer could not be used entirely: ${problems.join('; ')}.` : undefined;

      current.answer = answer;
      turns.push(current);
      // Only the turns whose observation is still sent keep their screenshot in memory.
      for (const old of turns.slice(0, -(keepScreenshots - 1) || turns.length)) { old.image = undefined; old.text = OMITTED_OBSERVATION_TEXT; }

      const usage = completion.usage;
      return {
        response: answer,
        actions,
        usage: usage ? { input_tokens: usage.prompt_tokens, output_tokens: usage.completion_tokens, total_tokens: usage.total_tokens } : undefined,
      };
    },
  };
}

export default openaiAgent;

function buildMessages(system: string, turns: Turn[], current: Turn, keepScreenshots: number, detail: 'high' | 'low' | 'auto'): ChatCompletionMessageParam[] {
  const messages: ChatCompletionMessageParam[] = [{ role: 'system', content: system }];
  const userContent = (turn: Turn): ChatCompletionContentPart[] => [
    { type: 'text', text: turn.text },
    ...(turn.image ? [{ type: 'image_url' as const, image_url: { url: turn.image, detail } }] : []),
  ];
  const firstWithObservation = turns.length - (keepScreenshots - 1);
  turns.forEach((turn, i) => {
    const content = i >= firstWithObservation ? userContent(turn) : [{ type: 'text' as const, text: OMITTED_OBSERVATION_TEXT }];
    messages.push({ role: 'user', content });
    messages.push({ role: 'assistant', content: turn.answer || '(empty answer)' });
  });
  messages.push({ role: 'user', content: userContent(current) });
  return messages;
}

function answerText(completion: unknown): string {
  const choices = (completion as { choices?: unknown } | null)?.choices;
  if (!Array.isArray(choices) || choices.length === 0) {
    throw new AgentResponseError('openai', `no choices in the reply: ${preview(completion)}`);
  }
  const message = (choices[0] as { message?: { content?: unknown; refusal?: unknown } }).message;
  if (!message || typeof message !== 'object') throw new AgentResponseError('openai', `choices[0] has no message: ${preview(choices[0])}`);
  if (typeof message.content === 'string') return message.content;
  if (Array.isArray(message.content)) {
    return message.content.map((part) => (typeof part === 'object' && part && typeof part.text === 'string' ? part.text : '')).join('');
  }
  if (typeof message.refusal === 'string') return message.refusal;
  if (message.content === null || message.content === undefined) return '';
  throw new AgentError(`openai: choices[0].message.content is neither text nor parts: ${preview(message.content)}`);
}

function preview(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}
