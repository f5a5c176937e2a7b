// The agent contract: what an agent sees (observations) and what it may answer (actions).
// Actions are OSWorld's: pyautogui code strings, computer_13 objects, or the special WAIT / FAIL / DONE.
import type { Action } from '../task/actions.ts';

export type ObservationType = 'screenshot' | 'a11y_tree' | 'screenshot_a11y_tree';

export interface Observation {
  /** PNG of the screen (with the cursor), when the observation type includes it. */
  screenshot?: Buffer;
  /** OSWorld's accessibility-tree XML, when the observation type includes it. */
  accessibilityTree?: string;
  /** Text of the focused terminal, when known. */
  terminal?: string | null;
  instruction: string;
}

export type { Action, Computer13Action,  SpecialActionType } from '../task/actions.ts';

export interface TokenUsage {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
}

export interface Prediction {
  /** The model's raw answer, kept in the trajectory. */
  response?: string;
  actions: Action[];
  /** Tokens this turn used, summed into summary.json. */
  usage?: Partial<TokenUsage>;
}

export interface AgentContext {
  taskId: string;
  domain: string;
  instruction: string;
  observationType: ObservationType;
  screen: { width: number; height: number };
  /** Our extension of the formats: the task's known solution, steps of actions (used by the scripted agent). */
  solution?: Action[][];
  /** Hint from the task (`action_number`), when it has one. */
  stepHint?: number;
  maxSteps: number;
  signal?: AbortSignal;
  log(message: string): void;
}

export interface Agent {
  /** Shown in results and reports. */
  name: string;
  /** Called once before the first step of every task. */
  reset?(context: AgentContext): void | Promise<void>;
  /** One turn: look at the observation, answer actions. An empty list means "nothing this turn". */
  predict(instruction: string, observation: Observation): Prediction | Promise<Prediction>;
  /**
   * What the run record should say about this agent beyond its name: model names and parameters (`{ model:
   * 'gpt-4o', temperature: 0 }`). JSON values only; secrets in it are masked. Called once per task, before reset.
   */
  describe?(): AgentDescription | Promise<AgentDescription>;
}

/** What an agent's describe() returns: plain JSON values. */
export type AgentDescription = Record<string, unknown>;

/** Identity helper that types an agent object. */
export function defineAgent(agent: Agent): Agent {
  return agent;
}
