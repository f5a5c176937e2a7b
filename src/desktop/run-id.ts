// A run's id labels its containers (deskbench.run) so that its teardown and reaper remove exactly those. The plugin
// takes one per run and hands it to its workers in the payload (src/contract/payload.ts); code that starts desktops
// without the plugin (the deskbench/test fixtures, deskbench's own tests) labels them with this process's. Either may be
// set from outside with DESKBENCH_RUN_ID, read here and nowhere else.
import { randomUUID } from 'node:crypto';

const processRunId = `run-${randomUUID().slice(0, 8)}`;

/** The run id of this process: DESKBENCH_RUN_ID when set, else one id per process. */
export function currentRunId(): string {
  return process.env.DESKBENCH_RUN_ID || processRunId;
}
