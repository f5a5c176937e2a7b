// What a task test leaves in its meta for the reporters (vitest carries test meta from the worker to the main process,
// and keeps it in blob reports for --merge-reports).
import type { AgentIdentity } from '../agent/identity.ts';
import type { DesktopEnvironment } from '../desktop/environment.ts';

/** What a task test leaves in `meta.deskbench` for reporters. */
export interface TaskTestMeta {
  id: string;
  domain: string;
  format: string;
  tags: string[];
  score?: number;
  passed?: boolean;
  state?: string;
  evalError?: string | null;
  error?: string | null;
  steps?: number;
  /** The task's results folder, relative to `resultsDir` (forward slashes). */
  resultDir?: string;
  durationMs?: number;
  /** The result is an earlier run's (resume). */
  resumed?: boolean;
  /** Which run of the task this is (from 1), when the repeats option asks for several. */
  repeat?: number;
  /** The desktop image and app versions the task ran on. */
  desktop?: DesktopEnvironment;
  /** The code of the infrastructure error that ended the task (a download that failed, a file changed upstream). */
  infraError?: string;
  /** The task file relative to the vitest root and its sha256, when the test module was generated. */
  taskFile?: string;
  taskSha256?: string;
  /** The agent that ran it: name, module and its hash, what describe() says (the run record's agents). */
  agentIdentity?: AgentIdentity;
}

declare module 'vitest' {
  interface TaskMeta {
    deskbench?: TaskTestMeta;
  }
}
