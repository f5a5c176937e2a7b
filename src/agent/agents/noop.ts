// An agent that does nothing and declares the task done at once: the score it gets is the score of the task's
// initial state (useful to check that evaluators do not pass untouched desktops).

import type { Agent } from '../types.ts';

export function noopAgent(): Agent {
  return {
    name: 'noop',
    predict: () => ({ response: 'DONE', actions: ['DONE'] }),
  };
}

