// Spider2-V: OSWorld's shape plus tags, action_number and counterpart (a few of its files have GUI-OS's shape), its
// own setup steps (services and cloud accounts skip the task unless the user registers a handler) and getters.
import type { BenchmarkAdapter } from '../adapter.ts';
import { guios, isGuiosShaped } from '../guios/index.ts';
import { osworld } from '../osworld/index.ts';
import { spider2vGetters } from './getters.ts';
import { spider2vTaskSchema } from './schema.ts';
import { spider2vSteps } from './setup-steps.ts';

const SPIDER2V_KEYS = ['tags', 'action_number', 'counterpart'];

export const spider2v: BenchmarkAdapter = {
  name: 'spider2v',
  description: 'task file in Spider2-V format',
  // A GUI-OS-shaped file that GUI-OS does not claim (it sits among JSON files only) is Spider2-V's.
  claims: (file, data) => (isGuiosShaped(data) ? !guios.claims(file, data) : SPIDER2V_KEYS.some((key) => key in data)),
  schemaFor: (data) => (isGuiosShaped(data) ? guios.schemaFor(data) : spider2vTaskSchema),
  read: (data) => (isGuiosShaped(data) ? asSpider2v(guios.read(data)) : osworld.read(data)),
  setupSteps: spider2vSteps,
  getters: spider2vGetters,
  stepCommands: {
    google_chrome_browser: () => [{ command: ['google-chrome'], shell: false }, { command: ['socat'], shell: false }],
    // The script itself is downloaded or found among Spider2-V's files when the step runs; bash runs it.
    script_and_execute: () => [{ command: ['/bin/bash'], shell: false }],
  },
};

/** A GUI-OS-shaped Spider2-V task is still Spider2-V's: its agents can answer FAIL, which scores 0 as in OSWorld. */
function asSpider2v({ setup, evaluator }: ReturnType<BenchmarkAdapter['read']>): ReturnType<BenchmarkAdapter['read']> {
  return { setup, evaluator: evaluator && { postconfig: evaluator.postconfig, root: evaluator.root } };
}
