// The labels every deskbench desktop container and network carries: cleanup finds a run's leftovers by them.
export const DESKBENCH_LABEL = 'deskbench';
export const RUN_LABEL = 'deskbench.run';
