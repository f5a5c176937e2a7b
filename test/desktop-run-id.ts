// The run id every container of one `desktop` test project run is labelled with (vitest.config.ts passes it to the
// test workers as DESKBENCH_RUN_ID). Without a shared id each worker picked its own, so a container left behind by a
// test that threw mid-task had no owner to remove it; the project's global teardown now removes this run's leftovers.
// The child vitest runs some tests start get their own ids (helpers/child-run.ts) and clean up after themselves.
export const DESKTOP_TESTS_RUN_ID = `test-desktop-${process.pid}`;
