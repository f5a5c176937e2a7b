import { describe, expect, it } from 'vitest';
import { scriptedAgent } from '../../src/agent/agents/scripted.ts';
import { noopAgent } from '../../src/agent/agents/noop.ts';
import { failAgent } from '../../src/agent/agents/fail.ts';
import { loadAgent } from '../../src/agent/resolve.ts';
import { defineAgent } from '../../src/agent/types.ts';
import type { AgentContext } from '../../src/agent/types.ts';

const context = (solution?: AgentContext['solution']): AgentContext => ({
  taskId: 't1', domain: 'os', instruction: 'do it', observationType: 'screenshot', screen: { width: 1920, height: 1080 },
  maxSteps: 15, solution, log: () => {},
});
const observation = { instruction: 'do it' };

describe('scripted agent', () => {
  it('replays the solution step by step, then answers DONE; reset starts over', async () => {
    const agent = scriptedAgent();
    agent.reset?.(context([['pyautogui.click(1, 2)'], [{ action_type: 'TYPING', text: 'hi' }, 'WAIT']]));
    expect((await agent.predict('do it', observation)).actions).toEqual(['pyautogui.click(1, 2)']);
    expect((await agent.predict('do it', observation)).actions).toEqual([{ action_type: 'TYPING', text: 'hi' }, 'WAIT']);
    expect((await agent.predict('do it', observation)).actions).toEqual(['DONE']);
    agent.reset?.(context([['pyautogui.press("a")']]));
    expect((await agent.predict('do it', observation)).actions).toEqual(['pyautogui.press("a")']);
  });

  it('refuses a task without a solution, naming the task', () => {
    expect(() => scriptedAgent().reset?.(context())).toThrow('scripted agent: task t1 has no solution to replay');
    expect(() => scriptedAgent().reset?.(context(['x'] as never))).toThrow(/solution must be a list of steps/);
  });
});

describe('noop agent', () => {
  it('answers DONE at once', async () => {
    expect((await noopAgent().predict('do it', observation)).actions).toEqual(['DONE']);
  });
});

describe('fail agent', () => {
  it('answers FAIL at once, and is a built-in name', async () => {
    expect((await failAgent().predict('do it', observation)).actions).toEqual(['FAIL']);
    expect((await loadAgent('fail')).name).toBe('fail');
  });
});

describe('a custom agent with defineAgent (the docs example shape)', () => {
  it('works as an Agent', async () => {
    let steps = 0;
    const agent = defineAgent({
      name: 'opens-terminal',
      reset() { steps = 0; },
      predict() {
        steps++;
        return steps === 1 ? { actions: ["pyautogui.hotkey('ctrl', 'alt', 't')"] } : { actions: ['DONE'] };
      },
    });
    agent.reset?.(context());
    expect((await agent.predict('x', observation)).actions).toEqual(["pyautogui.hotkey('ctrl', 'alt', 't')"]);
    expect((await agent.predict('x', observation)).actions).toEqual(['DONE']);
  });
});
