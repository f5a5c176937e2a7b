// Removes deskbench desktop containers (and then their run's network) by label. Ryuk (testcontainers' reaper) is
// disabled because its image cannot be pulled here, so a global teardown and our reaper call this instead.
import { getContainerRuntimeClient } from 'testcontainers';
import { DESKBENCH_LABEL, RUN_LABEL } from './labels.ts';
import { removeRunNetworks } from './network.ts';

/**
 * Force-removes containers labelled deskbench=1 (only those of `runId` when given), then the networks left without a
 * container; returns the containers' ids.
 */
export async function removeContainers(options: { runId?: string } = {}): Promise<string[]> {
  const client = await getContainerRuntimeClient();
  const label = [`${DESKBENCH_LABEL}=1`];
  if (options.runId) label.push(`${RUN_LABEL}=${options.runId}`);
  const found = await client.container.dockerode.listContainers({ all: true, filters: { label } });
  await Promise.all(found.map((info) => removeContainer(info.Id)));
  await removeRunNetworks(options.runId);
  return found.map((info) => info.Id);
}

/** Force-removes one container with its volumes; one already gone (or being removed) is not an error. */
export async function removeContainer(id: string): Promise<void> {
  const client = await getContainerRuntimeClient();
  await client.container.dockerode
    .getContainer(id)
    .remove({ force: true, v: true })
    .catch((error: { statusCode?: number }) => {
      if (error.statusCode !== 404 && error.statusCode !== 409) throw error;
    });
}
