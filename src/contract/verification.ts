// What `deskbench verify` found, as `--json` prints it and the report shows it (node/verify writes it,
// node/report reads it): the summary, its rows, failures and errors, and what the figures come from.

/** The agents verify runs: scripted must score 1, noop 0, and fail 1 on infeasible tasks. */
export type VerifyAgent = 'scripted' | 'noop' | 'fail';

export interface VerifyFailure {
  id: string;
  agent: VerifyAgent;
  /** The second solution that ran (`gui` for `<id>.gui.json`). */
  variant?: string;
  /** Which run of the task, with repeats. */
  repeat?: number;
  /** The raw score, null when the run broke or was skipped before a score. */
  score: number | null;
  state: string | null;
  evalError: string | null;
  /** Why the run broke (setup, desktop, agent, timeout), when it did. */
  error: string | null;
}

/** One task's runs of one kind: their scores (one per repeat), how many scored as expected, their mean time. */
export interface RunStats {
  scores: (number | null)[];
  asExpected: number;
  /** asExpected / runs × 100. */
  passRate: number;
  meanSeconds: number;
}

export interface VerifyRow {
  id: string;
  domain: string;
  /** By run name (scripted, scripted.gui, noop, fail). */
  runs: Record<string, RunStats>;
  verified: boolean;
  /** Some kind of run scored as expected in some repeats and not in others. */
  flaky: boolean;
}

/** An error that fails verify on its own: a path naming nothing, an invalid task file, a solution whose task is absent. */
export interface VerifyError {
  code: string;
  file: string;
  path: string;
  message: string;
  line?: number;
  column?: number;
}

export interface VerificationSummary {
  /** Tasks in the paths (valid task files). */
  tasks: number;
  /** Tasks with a solution (their own, a shipped one, or a second one). */
  solved: number;
  /** Solved tasks whose every run scored as expected. */
  verified: number;
  /** Runs of each task and agent. */
  repeats: number;
  /** Tasks that score above 0 with the noop agent. */
  freePasses: string[];
  /** Tasks whose runs of one kind scored as expected in some repeats and not in others. */
  flaky: string[];
  /** Tasks under the paths whose checker needs text only a gold file holds: no honest solution, never verified. */
  goldOnly: { id: string; domain: string; reason: string }[];
  errors: VerifyError[];
  failures: VerifyFailure[];
  rows: VerifyRow[];
  /** What the figures come from: date, commit, image id and build hashes, cores. */
  environment?: VerifyEnvironment;
  /** Wall time of the whole verification, seconds. */
  durationSeconds?: number;
}

export interface VerifyEnvironment {
  /** When the verification started (ISO 8601, UTC). */
  date: string;
  /** deskbench's git commit, when it runs from a checkout. */
  commit?: string;
  /** The checkout had uncommitted changes to what verify runs (documentation, tests and benchmarks aside). */
  dirty?: boolean;
  /** The desktop image name the tasks ran on (deskbench/desktop:latest unless DESKBENCH_IMAGE says otherwise). */
  image: string;
  /** The engine's id of that image (`sha256:…`). */
  imageId?: string;
  /** The build hash the image is tagged with (`deskbench/desktop:<hash>`, as scripts/build-image.sh tags it). */
  imageBuildHash?: string;
  /** What `scripts/build-image.sh --hash` prints for the tree verify ran from. */
  treeBuildHash?: string;
  /** CPU cores of the machine: the times depend on them. */
  cores: number;
}
