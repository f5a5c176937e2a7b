// What a benchmark format brings to deskbench, in one place: how its task files are recognised and read, the setup
// steps, getters and metrics its tasks name, and the tag its tasks carry. Each format is a folder here with an
// index.ts that builds its adapter; adapters/index.ts registers them, one line each.
import type { z } from 'zod';
import type { Getter, Metric } from '../eval/registry.ts';
import type { SetupStep } from '../setup/registry.ts';
import type { Command } from '../task/commands.ts';
import type { Evaluator, GetterSpec, SetupStepSpec, Task } from '../task/types.ts';

/** The parts of a Task a format decides; the loader (load.ts) fills in the rest from the common fields. */
interface FormatFields {
  setup: SetupStepSpec[];
  evaluator: Evaluator | null;
}

export interface BenchmarkAdapter {
  /** The format's name: Task.format, the tag its tasks carry, the folder of its shipped solutions. */
  name: string;
  /** What the tag means, for vitest's tag list. */
  description: string;
  /** Whether a task file's JSON is this format. The formats' claims never overlap, but for the fallback's. */
  claims(file: string, data: Record<string, unknown>): boolean;
  /** Reads whatever no other format claims (OSWorld's: its files have no mark of their own). */
  fallback?: boolean;
  /** The schema that checks a claimed file (errors name the field and its line). */
  schemaFor(data: Record<string, unknown>): z.ZodType;
  /** The setup steps and the evaluator of a file that passed the schema. */
  read(data: Record<string, unknown>): FormatFields;
  /** Setup steps, getters and metrics under the names its task files use; metricVariants replace a namesake for its tasks only. */
  setupSteps?: Record<string, SetupStep>;
  getters?: Record<string, Getter>;
  metrics?: Record<string, Metric>;
  metricVariants?: Record<string, Metric>;
  /** `deskbench check`'s rules: the commands its setup steps and getters run in the desktop, by step or getter type. */
  stepCommands?: Record<string, (parameters: Record<string, unknown>, task: Task) => Command[]>;
  getterCommands?: Record<string, (getter: GetterSpec, task: Task) => Command[]>;
}
