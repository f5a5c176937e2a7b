// A deliberately weakened agent, for the README's "Comparing agents": it replays each task's solution as the
// `scripted` agent does, except on the tasks of the domains it gives up on (default: os and terminal), where it
// answers DONE at once. A run of it beside a run of `scripted` shows what `deskbench compare` reports:
//   DESKBENCH_AGENT=./examples/agents/weakened.ts DESKBENCH_RESULTS=results-weakened npx vitest run --project examples
// agentOptions: { giveUpOn: ['os', 'terminal'] }. No imports, so the file type-checks wherever the examples are copied.

type Action = string | Record<string, unknown>;

interface TaskContext {
  domain: string;
  /** The task's known solution: steps of actions (deskbench's extension of the formats). */
  solution?: Action[][];
}

export default function weakenedAgent(options: { giveUpOn?: string[] } = {}) {
  const giveUpOn = options.giveUpOn ?? ['os', 'terminal'];
  let steps: Action[][] = [];
  let next = 0;
  return {
    name: 'weakened',
    // What the run record says of this agent beside its name (a model agent reports its model and parameters).
    describe: () => ({ strategy: 'replays the solution, except in the domains it gives up on', giveUpOn }),
    reset(context: TaskContext) {
      steps = giveUpOn.includes(context.domain) ? [] : (context.solution ?? []);
      next = 0;
    },
    predict() {
      if (next >= steps.length) return { response: steps.length ? 'solution replayed' : 'giving up', actions: ['DONE'] };
      const step = next++;
      return { response: `solution step ${step + 1} of ${steps.length}`, actions: steps[step] };
    },
  };
}
