// Desktops for the files of the `desktop` test project. The project's global setup (test/desktop-tests.global-setup.ts)
// keeps a pool of warm desktops in vitest's main process; a file takes its desktops there instead of starting its own,
// so it does not wait while one starts, and the desktop goes with the run however the run ends. A test that must start
// containers itself (the provider's own tests) labels them with a run id from ownRunId(), which a reaper watches.
import { randomBytes } from 'node:crypto';
import { afterAll, inject } from 'vitest';
import type { DesktopSpec } from '../../src/desktop/providers/index.ts';
import type { DesktopHandle, DesktopPoolAddress, DesktopService } from '../../src/desktop/providers/provider.ts';
import { startReaper } from '../../src/desktop/reaper.ts';
import { takeDesktopFrom } from '../../src/desktop/providers/docker/warm-pool-endpoint.ts';
import { DESKTOP_POOL_KEY } from '../desktop-project.ts';

/** A desktop from the pool: its control server's URL and token, and the DevTools and VLC fronts. */
export interface TestDesktop extends DesktopHandle {
  url: string;
  token: string;
  cdp: DesktopService;
  vlc: DesktopService;
}

function poolAddress(): DesktopPoolAddress {
  const address = inject(DESKTOP_POOL_KEY);
  if (!address) throw new Error('no desktop pool: desktop tests run in the `desktop` project (npm run test:desktop), whose global setup serves it');
  return address;
}

/** A fresh desktop of the caller's own, from the project's pool; stop() removes its container. */
export async function takeDesktop(): Promise<TestDesktop> {
  const handle = await takeDesktopFrom(poolAddress());
  const { cdp, vlc } = handle;
  if (!cdp || !vlc || !handle.client.token) throw new Error(`the pool handed out desktop ${handle.id} without its token or fronts`);
  return { ...handle, url: handle.client.url, token: handle.client.token, cdp, vlc };
}

/** runTask's `desktop` option that takes each task's desktop from the project's pool, as the plugin's tests do. */
export function pooledDesktopSpec(): DesktopSpec {
  return { provider: 'docker', pool: poolAddress() };
}

/**
 * A run id of the file's own, for containers it starts itself and counts by label: under the project's run id, and
 * watched by a reaper that removes its containers when this worker ends — at the file's end, or killed because the
 * run was interrupted (vitest's workers exit at once when its main process goes, with no hook run). Call it at the
 * top of the file or of a describe block.
 */
export function ownRunId(name: string): string {
  const runId = `${process.env.DESKBENCH_RUN_ID ?? 'test-desktop'}-${name}-${randomBytes(3).toString('hex')}`;
  const stopReaper = startReaper(runId);
  afterAll(stopReaper);
  return runId;
}
