// The one normalized task model the rest of deskbench works with, whatever format the file was written in.
import type { Action } from './actions.ts';

/** A benchmark format's name: osworld, spider2v, guios, or another registered adapter's (src/adapters/). */
export type SourceFormat = string;

/** A setup or postconfig step: OSWorld's `{type, parameters}`, GUI-OS's `{func, arguments}` normalized alike. */
export interface SetupStepSpec {
  type: string;
  parameters: Record<string, unknown>;
  /** Set when the reference harness skips this step (e.g. GUI-OS's legacy `{type, parameters}` entries). */
  ignoredBecause?: string;
}

/** A getter config: `{type, ...}` (OSWorld `result` / `expected`), plus `multi` / `gives` when present. */
export interface GetterSpec {
  type: string;
  [key: string]: unknown;
}

/** One metric call: `func(result_getter(), expected_getter()?, **options)`. */
export interface MetricNode {
  kind: 'metric';
  func: string;
  result?: GetterSpec;
  /** Present when the task gives a truthy `expected` (OSWorld only then passes an expected value). */
  expected?: GetterSpec;
  options: Record<string, unknown>;
}

/** Several metrics joined by `conj`: and → mean with early exit on 0; or → max with early exit on 1. */
export interface ConjNode {
  kind: 'conj';
  conj: 'and' | 'or';
  children: EvalNode[];
}

/** OSWorld's `func: "infeasible"`: 1 when the agent's last action is FAIL, else 0. */
export interface InfeasibleNode {
  kind: 'infeasible';
}

export type EvalNode = MetricNode | ConjNode | InfeasibleNode;

export interface Evaluator {
  /** Steps run before the getters (OSWorld `postconfig`), also for infeasible tasks. */
  postconfig: SetupStepSpec[];
  root: EvalNode;
  /** Score the final state even when the agent answered FAIL (GUI-OS has no FAIL action; OSWorld scores that run 0). */
  scoreAfterFail?: boolean;
}

export interface TaskFlags {
  /** The evaluator is `infeasible` (the right answer is to FAIL). */
  infeasible: boolean;
  /**
   * Needs the internet beyond its file downloads: live websites, a proxy, package installs (apt, pip, snap, npm,
   * conda), git clones, or an instruction to install something from a store.
   */
  needsNetwork: boolean;
  /** Fetches files from URLs (download steps, cloud_file and the like): offline it needs them supplied (`files`). */
  needsDownload: boolean;
  /** Needs a cloud account (Google Drive, Snowflake, BigQuery, dbt Cloud, ServiceNow, …). */
  needsAccount: boolean;
}

export interface Task {
  id: string;
  format: SourceFormat;
  /** Absolute path of the task file. */
  file: string;
  /** Folder relative files (GUI-OS inputs, `file:` URLs) resolve against. */
  dir: string;
  /** OSWorld: the examples folder (chrome, libreoffice_calc, …); Spider2-V / GUI-OS: the tool folder. */
  domain: string;
  platform: 'ubuntu' | 'windows';
  instruction: string;
  setup: SetupStepSpec[];
  /** null when the task has no evaluator (GUI-OS scores it -1). */
  evaluator: Evaluator | null;
  /** The task's own tags (Spider2-V / GUI-OS `tags`). */
  tags: string[];
  relatedApps: string[];
  /** `action_number`, a hint of how many steps a solution takes. */
  stepHint?: number;
  counterpart?: string;
  flags: TaskFlags;
  /** Our extension of the formats: a known solution, a list of steps, each a list of actions. */
  solution?: Action[][];
  /** Fields the normalized model does not name (snapshot, source, proxy, notes, …), kept as written. */
  extra: Record<string, unknown>;
}
