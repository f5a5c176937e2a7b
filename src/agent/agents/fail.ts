// An agent that gives up at once: it answers FAIL. OSWorld scores FAIL 1 on an infeasible task and 0 on any other,
// so this is the baseline for the infeasible side of a benchmark (and a check that feasible tasks never pass on it).

import type { Agent } from '../types.ts';

export function failAgent(): Agent {
  return {
    name: 'fail',
    predict: () => ({ response: 'FAIL', actions: ['FAIL'] }),
  };
}

