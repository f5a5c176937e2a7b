// What every run of the `desktop` test project shares (vitest.config.ts), and the fixture run that
// test/desktop/interrupted.desktop.test.ts interrupts shares too: the global setup, which sees one desktop come up and
// serves the project's warm desktops, and one run id for every container these tests start. Without a shared id each
// worker picked its own, so a container left behind by a test that threw mid-task had no owner to remove it; the
// project's reaper and global teardown now remove this run's containers. Files that start containers under ids of their
// own take them from test/helpers/desktops.ts (ownRunId: under this one). Every child process a test starts (a vitest
// run, the deskbench command, a shell) gets an id of its own too (childEnv and runChild in helpers/child-run.ts), never
// this one: a child running the deskbench plugin removes every container of its id when it ends, which with this id
// would be the desktops of the files running beside it.
import { resolve } from 'node:path';
import type { DesktopPoolAddress } from '../src/desktop/providers/provider.ts';

export const DESKTOP_TESTS_RUN_ID = `test-desktop-${process.pid}`;

export const DESKTOP_PROJECT_SETUP = {
  globalSetup: [resolve(import.meta.dirname, 'desktop-tests.global-setup.ts')],
  env: { TESTCONTAINERS_RYUK_DISABLED: 'true', DESKBENCH_RUN_ID: DESKTOP_TESTS_RUN_ID },
};

/** Where the project's warm pool answers (the global setup provides it; test/helpers/desktops.ts injects it). */
export const DESKTOP_POOL_KEY = 'deskbench-tests:desktop-pool';

declare module 'vitest' {
  interface ProvidedContext {
    'deskbench-tests:desktop-pool': DesktopPoolAddress | undefined;
  }
}
