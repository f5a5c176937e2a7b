// Replays the task's known solution (AgentContext.solution, deskbench's extension of the task formats):
// step i answers solution[i], and once the steps run out it answers DONE. Used to check tasks and evaluators
// end to end without a model.

import type { Action, Agent, AgentContext, Prediction } from '../types.ts';
import { AgentError } from '../../errors.ts';

export interface ScriptedAgentOptions {
  name?: string;
  /** Use these steps instead of the task's solution (e.g. in tests). */
  solution?: Action[][];
}

export function scriptedAgent(options: ScriptedAgentOptions = {}): Agent {
  let steps: Action[][] = [];
  let next = 0;
  return {
    name: options.name ?? 'scripted',
    reset(context: AgentContext) {
      const solution = options.solution ?? context.solution;
      if (!solution) throw new AgentError(`scripted agent: task ${context.taskId} has no solution to replay`);
      if (!Array.isArray(solution) || !solution.every(Array.isArray)) {
        throw new AgentError(`scripted agent: task ${context.taskId}: solution must be a list of steps, each a list of actions`);
      }
      steps = solution;
      next = 0;
    },
    predict(): Prediction {
      if (next >= steps.length) return { response: 'solution replayed', actions: ['DONE'] };
      const step = next++;
      return { response: `solution step ${step + 1} of ${steps.length}`, actions: steps[step] };
    },
  };
}

