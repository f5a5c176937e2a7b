// The Docker network a run's desktops are attached to: a bridge with inter-container traffic switched off
// (`com.docker.network.bridge.enable_icc=false`), so no desktop can reach another one — not its control server, not
// the DevTools port a task opens with socat — while each still reaches the outside as on the default bridge. One
// network per run rather than per desktop: Docker has only about 30 bridge subnets to hand out by default.
import { randomBytes } from 'node:crypto';
import { getContainerRuntimeClient } from 'testcontainers';
import { DESKBENCH_LABEL, RUN_LABEL } from './labels.ts';

/**
 * The run's network (its id), created on first use. Workers of one run may race to create it: each creates one under
 * a name of its own (Docker's duplicate-name check is racy, and a duplicate name breaks lookups), then every worker
 * settles on the oldest of the run's networks, and a loser removes its own.
 */
export async function ensureRunNetwork(runId: string): Promise<string> {
  const docker = (await getContainerRuntimeClient()).container.dockerode;
  const oldest = async () => {
    const found = await docker.listNetworks({ filters: { label: [`${RUN_LABEL}=${runId}`] } });
    return found.sort((a, b) => a.Created.localeCompare(b.Created) || a.Id.localeCompare(b.Id))[0]?.Id;
  };
  const existing = await oldest();
  if (existing) return existing;
  await removeAbandonedNetworks(docker);
  const created = await docker.createNetwork({
    Name: `deskbench-${runId}-${randomBytes(3).toString('hex')}`,
    Driver: 'bridge',
    Options: { 'com.docker.network.bridge.enable_icc': 'false' },
    Labels: { [DESKBENCH_LABEL]: '1', [RUN_LABEL]: runId },
  });
  const chosen = (await oldest()) ?? created.id;
  if (chosen !== created.id) await created.remove().catch(() => {});
  return chosen;
}

/**
 * Networks of runs that ended without their cleanup (a killed process that used startDesktop directly) hold one of the
 * engine's few bridge subnets each: one older than an hour with no container is removed when a new one is made. A
 * live run whose network goes this way makes a new one at its next start (startDesktop retries once).
 */
const ABANDONED_AFTER_MS = 60 * 60 * 1000;

async function removeAbandonedNetworks(docker: Awaited<ReturnType<typeof getContainerRuntimeClient>>['container']['dockerode']): Promise<void> {
  const networks = await docker.listNetworks({ filters: { label: [`${DESKBENCH_LABEL}=1`] } }).catch(() => []);
  for (const network of networks) {
    if (Date.now() - Date.parse(network.Created) < ABANDONED_AFTER_MS) continue;
    const details = await docker.getNetwork(network.Id).inspect().catch(() => undefined);
    if (details && Object.keys(details.Containers ?? {}).length === 0) await docker.getNetwork(network.Id).remove().catch(() => {});
  }
}

/** Removes the run's networks that no container uses any more; returns their names. */
export async function removeRunNetworks(runId?: string): Promise<string[]> {
  const docker = (await getContainerRuntimeClient()).container.dockerode;
  const label = [`${DESKBENCH_LABEL}=1`, ...(runId ? [`${RUN_LABEL}=${runId}`] : [])];
  const found = await docker.listNetworks({ filters: { label } });
  const removed: string[] = [];
  for (const network of found) {
    try {
      await docker.getNetwork(network.Id).remove();
      removed.push(network.Name);
    } catch (error) {
      // 403/409: a container of this run still uses it (another worker's); 404: already gone.
      if (![403, 404, 409].includes((error as { statusCode?: number }).statusCode ?? 0)) throw error;
    }
  }
  return removed;
}
