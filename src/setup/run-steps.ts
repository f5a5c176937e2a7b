// Runs a task's setup (`config`) or postconfig steps in order, through the step registry, as OSWorld's
// SetupController.setup does: each step's failure stops the run as "Setup step i (type) failed: …".
// Before anything runs, every step type is looked up, so an unknown type, or a step that needs an outside service
// (which would skip the task anyway), is reported before the desktop is touched.
import type { SetupStepSpec } from '../task/types.ts';
import { registerBuiltinSteps } from './builtins.ts';
import { SetupStepError, skipReasonOf, type SetupPhase } from './errors.ts';
import { messageOf, substituteVars } from './parameters.ts';
import { setupSteps, SkipTask, type SetupContext, type SetupStep } from './registry.ts';

export interface RunStepsOptions {
  phase: SetupPhase;
}

export async function runSetupSteps(steps: readonly SetupStepSpec[], ctx: SetupContext, options: RunStepsOptions): Promise<void> {
  registerBuiltinSteps();
  const handlers = steps.map((spec, index): SetupStep | undefined => {
    if (spec.ignoredBecause) return undefined;
    const handler = setupSteps.get(spec.type);
    if (!handler) throw unknownStep(options.phase, index, spec.type);
    const skip = skipReasonOf(handler);
    if (skip) throw new SkipTask(`${skip} (${options.phase} step ${index}: ${spec.type})`);
    return handler;
  });
  for (const [index, spec] of steps.entries()) {
    const handler = handlers[index];
    if (!handler) {
      ctx.log(`${options.phase} step ${index} (${spec.type}) skipped: ${spec.ignoredBecause}`);
      continue;
    }
    ctx.signal?.throwIfAborted();
    ctx.log(`${options.phase} step ${index}: ${spec.type}`);
    try {
      await handler(ctx, substituteVars(spec.parameters ?? {}, ctx.vars));
    } catch (error) {
      if (error instanceof SkipTask) throw error;
      if (ctx.signal?.aborted) throw error;
      throw new SetupStepError(options.phase, index, spec.type, `failed: ${messageOf(error)}`, error);
    }
  }
}

function unknownStep(phase: SetupPhase, index: number, type: string): SetupStepError {
  const close = setupSteps.suggest(type, 3);
  return new SetupStepError(
    phase,
    index,
    type,
    `has an unknown type "${type}"` +
      (close.length ? `; did you mean ${close.map((name) => `"${name}"`).join(' or ')}?` : '.') +
      ` Register a handler with defineSetupStep(${JSON.stringify(type)}, async (ctx, parameters) => { … }) in a module` +
      ` listed in the plugin's \`extensions\` option.`,
  );
}
