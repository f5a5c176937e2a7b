// testcontainers guesses where the engine's published ports are; inside a container (a /.dockerenv, as on CI's
// sandbox) it guesses the default bridge's gateway, where ports published on 127.0.0.1 are not reachable. This file
// forces that wrong guess (TESTCONTAINERS_HOST_OVERRIDE, read once, before this worker's first engine client) and
// checks a desktop still starts and answers: the desktop is reached on its loopback publish address.
import { getContainerRuntimeClient } from 'testcontainers';
import { expect, test } from 'vitest';
import { removeContainers } from '../../src/desktop/cleanup.ts';
import { startDesktop } from '../../src/desktop/providers/docker/container.ts';
import { ownRunId } from '../helpers/desktops.ts';

process.env.TESTCONTAINERS_HOST_OVERRIDE = '172.17.0.1';
const runId = ownRunId('host-guess');

test('a desktop starts and answers even when testcontainers guesses the bridge gateway as the engine host', { timeout: 180_000 }, async () => {
  expect((await getContainerRuntimeClient()).info.containerRuntime.host).toBe('172.17.0.1');
  try {
    const desktop = await startDesktop({ runId });
    expect(desktop.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await desktop.client.platform()).toBe('Linux');
  } finally {
    await removeContainers({ runId });
  }
});
