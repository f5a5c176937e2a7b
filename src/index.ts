// deskbench's public API: run one metric, extend the registries, write an agent, and the types they use.
// The rooms behind it and how a task flows through them: docs/architecture.md.
import { registerAdapters } from './adapters/index.ts';

// The formats' own metrics, getters and setup steps, for runMetric and the registries' users before any task loads.
registerAdapters();

export { runMetric } from './eval/run-metric.ts';
export { defineMetric, defineGetter } from './eval/registry.ts';
export type { Metric, Getter, EvalEnv, Options } from './eval/registry.ts';
export { defineSetupStep } from './setup/registry.ts';
export { DeskbenchError, ERROR_CODES, SkipTask } from './errors.ts';
export type { ErrorCode } from './errors.ts';
export type { SetupStep, SetupContext } from './setup/registry.ts';
export { defineAgent } from './agent/types.ts';
export type {
  Agent,
  AgentContext,
  AgentDescription,
  Action,
  Computer13Action,
  Observation,
  ObservationType,
  Prediction,
  TokenUsage,
} from './agent/types.ts';
export type { Task, Evaluator, EvalNode, MetricNode, ConjNode, InfeasibleNode, GetterSpec, SetupStepSpec } from './task/types.ts';
export type { EvalResult, EvalDetails, MetricReport, GetterReport } from './eval/engine.ts';
export { DesktopClient } from './desktop/client.ts';
