// The agent loop, as OSWorld's run_single_example: observe → predict → run each action → observe, until the agent says
// DONE or FAIL, or max steps (agent turns, not actions) are used up. The final state is judged either way.
import type { DesktopClient } from '../desktop/client.ts';
import { toPyautoguiCode } from '../agent/actions.ts';
import { ABORTED, untilAborted } from '../abort.ts';
import { AgentError } from '../errors.ts';
import { describeValue } from '../shared/describe-value.ts';
import type { Action, Agent, AgentContext, Observation, ObservationType, Prediction, TokenUsage } from '../agent/types.ts';

interface StepRecord {
  /** Agent turn, from 1. */
  step: number;
  /** The action as the agent gave it. */
  action: Action;
  /** The Python code that ran, or the special action. */
  executed: string;
  response?: string;
  done: boolean;
  /** The command's outcome: returncode, stderr, or the error that stopped it. */
  info: Record<string, unknown>;
  /** PNG of the screen after the action. */
  screenshot: Buffer;
  timestamp: Date;
}

type LoopEnd = 'DONE' | 'FAIL' | 'max_steps' | 'aborted';

export interface LoopResult {
  end: LoopEnd;
  /** Agent turns taken. */
  steps: number;
  lastAction?: Action;
  usage: TokenUsage;
  /** The first observation's screenshot and the last one. */
  firstScreenshot: Buffer;
  lastScreenshot: Buffer;
  /** Every answer the agent gave, for summary.json's messages. */
  responses: string[];
}

/** How the loop runs; max steps, observation type and the abort signal come from the agent's context. */
export interface LoopOptions {
  /** Seconds to wait after each action (and for WAIT) before observing. */
  pauseAfterAction: number;
  /** Called after every executed action (results writer). */
  onStep?(record: StepRecord): void | Promise<void>;
}

/**
 * What the agent is shown, plus the screenshot itself: it is always taken, since trajectories keep one per step, even
 * for an a11y-only agent that is not shown it.
 */
async function observe(desktop: DesktopClient, type: ObservationType, instruction: string): Promise<{ observation: Observation; screenshot: Buffer }> {
  const wantsTree = type === 'a11y_tree' || type === 'screenshot_a11y_tree';
  const [screenshot, accessibilityTree] = await Promise.all([
    desktop.screenshot(),
    wantsTree ? desktop.accessibilityTree() : Promise.resolve(undefined),
  ]);
  return { observation: { screenshot: type === 'a11y_tree' ? undefined : screenshot, accessibilityTree, instruction }, screenshot };
}

export async function runAgentLoop(agent: Agent, context: AgentContext, desktop: DesktopClient, options: LoopOptions): Promise<LoopResult> {
  const { maxSteps, observationType, signal } = context;
  const usage: TokenUsage = { input_tokens: 0, output_tokens: 0, total_tokens: 0 };
  const responses: string[] = [];
  try {
    await agent.reset?.(context);
  } catch (error) {
    throw new AgentError(`agent "${agent.name}" could not start: ${(error as Error).message ?? error}`, { cause: error });
  }
  let { observation, screenshot } = await observe(desktop, observationType, context.instruction);
  const firstScreenshot = screenshot;
  let lastAction: Action | undefined;
  let steps = 0;
  const stopped = () => ({ end: 'aborted' as const, steps, lastAction, usage, firstScreenshot, lastScreenshot: screenshot, responses });
  while (steps < maxSteps) {
    if (signal?.aborted) return stopped();
    let answer: unknown;
    try {
      // A model request may not honour the signal: the loop stops waiting for it on abort all the same.
      answer = await untilAborted(Promise.resolve(agent.predict(context.instruction, observation)), signal);
    } catch (error) {
      throw new AgentError(`agent "${agent.name}" failed at step ${steps + 1}: ${(error as Error).message ?? error}`, { cause: error });
    }
    if (answer === ABORTED) return stopped();
    const prediction = checkPrediction(answer, agent.name, steps + 1);
    steps++;
    if (prediction.response) responses.push(prediction.response);
    usage.input_tokens += prediction.usage?.input_tokens ?? 0;
    usage.output_tokens += prediction.usage?.output_tokens ?? 0;
    usage.total_tokens += prediction.usage?.total_tokens ?? (prediction.usage?.input_tokens ?? 0) + (prediction.usage?.output_tokens ?? 0);
    for (const action of prediction.actions) {
      if (signal?.aborted) return stopped();
      lastAction = action;
      const acted = await untilAborted(
        (async () => {
          const result = await execute(desktop, action, options.pauseAfterAction);
          return { ...result, ...(await observe(desktop, observationType, context.instruction)) };
        })(),
        signal,
      );
      if (acted === ABORTED) return stopped();
      const { executed, done, info } = acted;
      ({ observation, screenshot } = acted);
      await options.onStep?.({ step: steps, action, executed, response: prediction.response, done, info, screenshot, timestamp: new Date() });
      if (done) {
        const end = executed === 'FAIL' ? 'FAIL' : 'DONE';
        return { end, steps, lastAction, usage, firstScreenshot, lastScreenshot: screenshot, responses };
      }
    }
  }
  return signal?.aborted ? stopped() : { end: 'max_steps', steps, lastAction, usage, firstScreenshot, lastScreenshot: screenshot, responses };
}

/**
 * The agent contract, checked on every answer: `{ actions: Action[] }`, each action a pyautogui string or a
 * computer_13 object. Anything else is the agent's fault (AGENT_ERROR), not the desktop's; in particular a string
 * `actions` must not be run one character at a time.
 */
function checkPrediction(answer: unknown, agentName: string, step: number): Prediction {
  const where = `agent "${agentName}" at step ${step}: predict()`;
  if (answer === null || typeof answer !== 'object' || Array.isArray(answer)) {
    throw new AgentError(`${where} returned ${describeValue(answer)}; expected an object { actions: [...] , response?, usage? }`);
  }
  const { actions } = answer as { actions?: unknown };
  if (!Array.isArray(actions)) {
    throw new AgentError(`${where} returned actions ${describeValue(actions)}; expected a list of actions (pyautogui code strings, "WAIT"/"DONE"/"FAIL", or computer_13 objects)`);
  }
  for (const [index, action] of actions.entries()) {
    const isObject = typeof action === 'object' && action !== null && !Array.isArray(action);
    if (typeof action !== 'string' && !isObject) {
      throw new AgentError(`${where} returned actions[${index}] = ${describeValue(action)}; expected a pyautogui code string, "WAIT"/"DONE"/"FAIL", or a computer_13 object ({ action_type, … })`);
    }
  }
  return answer as Prediction;
}

/** Runs one action in the desktop as OSWorld's DesktopEnv.step does. A failing command is recorded, not fatal. */
async function execute(desktop: DesktopClient, action: Action, pause: number): Promise<{ executed: string; done: boolean; info: Record<string, unknown> }> {
  let code: string;
  try {
    code = toPyautoguiCode(action);
  } catch (error) {
    return { executed: '', done: false, info: { error: (error as Error).message } };
  }
  if (code === 'DONE') return { executed: code, done: true, info: { done: true } };
  if (code === 'FAIL') return { executed: code, done: true, info: { fail: true } };
  if (code === 'WAIT') {
    await sleep(pause * 1000);
    return { executed: code, done: false, info: {} };
  }
  const result = await desktop.execute(['python3', '-c', `import pyautogui; import time; pyautogui.FAILSAFE = False; ${code}`]);
  await sleep(pause * 1000);
  const info: Record<string, unknown> = { returncode: result.returncode };
  if (result.returncode !== 0) info.error = (result.error || result.output).slice(-2000);
  return { executed: code, done: false, info };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
