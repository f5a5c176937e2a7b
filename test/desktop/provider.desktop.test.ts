// The docker provider's errors and the image build bookkeeping, against the real engine; no desktop gets ready here
// (the provider's desktops, their labels, tokens and removal by run: isolation.desktop.test.ts).
import { execFileSync, spawnSync } from 'node:child_process';
import { getContainerRuntimeClient } from 'testcontainers';
import { describe, expect, test, vi } from 'vitest';
import { DesktopStartError, startDesktop } from '../../src/desktop/providers/docker/container.ts';
import { removeContainers } from '../../src/desktop/cleanup.ts';
import { ownRunId } from '../helpers/desktops.ts';
import { DesktopImageMissingError, desktopImage } from '../../src/desktop/image.ts';

/** The image's repository (DESKBENCH_IMAGE without its tag): build-image.sh tags <repo>:<hash> and <repo>:latest. */
const IMAGE_REPO = desktopImage().replace(/:[^/:]+$/, '');
/** The tag DESKBENCH_IMAGE pins, if any other than latest. */
const PINNED = /:([^/:]+)$/.exec(desktopImage())?.[1]?.replace(/^latest$/, '');

describe('docker provider', () => {
  test('a missing image gives a clear error naming the command that builds it', async () => {
    const error = await startDesktop({ image: 'deskbench/desktop:not-built' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DesktopImageMissingError);
    expect((error as Error).message).toContain('deskbench/desktop:not-built');
    expect((error as Error).message).toContain('build it with `npx deskbench image` (it is never pulled)');
  });

  test('a desktop that does not get ready in time is started once more, then fails naming both starts and its log; no container stays', async () => {
    const runId = ownRunId('start-timeout');
    const warned = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      // No desktop is ready within half a second: both starts time out.
      const error = await startDesktop({ runId, startupTimeoutMs: 500 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DesktopStartError);
      expect((error as DesktopStartError).code).toBe('DESKBENCH_DESKTOP_START');
      expect((error as Error).message).toMatch(/not received after 500 ?ms \(the second of two starts\); (the container's log ended with:\n|the container printed nothing)/);
      // The first timeout was said as it happened, with the same details.
      expect(warned.mock.calls.map((call) => String(call[0])).filter((line) => line.includes('a desktop did not get ready; starting another'))).toHaveLength(1);
    } finally {
      warned.mockRestore();
    }
    // testcontainers removes a container that never got ready: nothing of the run is left.
    expect(await removeContainers({ runId })).toEqual([]);
  });

  test('the latest image carries the content hash of docker/ and server/, so an unchanged tree is reused', async () => {
    const hash = execFileSync('bash', ['scripts/build-image.sh', '--hash'], { encoding: 'utf8' }).trim();
    expect(hash).toMatch(/^[0-9a-f]{12}$/);
    const client = await getContainerRuntimeClient();
    if (PINNED && PINNED !== hash) {
      // A run pinned to another image (DESKBENCH_IMAGE=<repo>:<tag>): the build uses it as it is and builds nothing.
      const pinned = await client.container.dockerode.getImage(desktopImage()).inspect();
      const build = spawnSync('bash', ['scripts/build-image.sh'], { encoding: 'utf8' });
      expect(build.status, build.stderr).toBe(0);
      expect(build.stderr).toContain(`using ${desktopImage()} as DESKBENCH_IMAGE pins it (this tree builds ${IMAGE_REPO}:${hash})`);
      expect((await client.container.dockerode.getImage(desktopImage()).inspect()).Id).toBe(pinned.Id);
      return;
    }
    const latest = await client.container.dockerode.getImage(IMAGE_REPO + ':latest').inspect();
    expect(latest.Config.Labels?.['deskbench.hash']).toBe(hash);
    const tagged = await client.container.dockerode.getImage(`${IMAGE_REPO}:${hash}`).inspect();
    expect(tagged.Id).toBe(latest.Id);
    // A second build of the same tree does nothing.
    const output = execFileSync('bash', ['scripts/build-image.sh'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    expect(output).toBe('');
    const after = await client.container.dockerode.getImage(IMAGE_REPO + ':latest').inspect();
    expect(after.Id).toBe(latest.Id);
  });
});
