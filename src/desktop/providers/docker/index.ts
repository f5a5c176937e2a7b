// The `docker` provider: a fresh local container per task (testcontainers, container.ts) from the deskbench desktop
// image (../../image.ts), or one of the run's warm desktops (warm-pool.ts, served to the workers by
// warm-pool-endpoint.ts). Its modules load when first needed: the `desktop` option's schema is read by every config.
import { z } from 'zod';
import { answers, defineDesktopProvider } from '../provider.ts';

const WARM_MESSAGE = 'expected a whole number of desktops (0 disables)';

export const docker = defineDesktopProvider({
  name: 'docker',
  options: z.object({
    provider: z.literal('docker'),
    /** The image to run (default DESKBENCH_IMAGE or deskbench/desktop:latest). */
    image: z.string().optional(),
    /** docker run's --memory, --cpus, --pids-limit (default {'4g', 2, 4096}). */
    limits: z
      .object({
        memory: z.union([z.number().int().positive(), z.string().regex(/^\d+(\.\d+)?\s*[kmgt]?i?b?$/i, "a size such as '4g' or '512m'")]).optional(),
        cpus: z.number().positive().optional(),
        pids: z.number().int().positive().optional(),
      })
      .strict()
      .optional(),
    /** The host interface its ports are published on (default 127.0.0.1). */
    hostAddress: z.string().optional(),
    /** Desktops started ahead of the tasks (warm-pool.ts); default one per worker, 0 disables. */
    warm: z.int({ error: WARM_MESSAGE }).nonnegative({ error: WARM_MESSAGE }).optional(),
  }),

  /** A fresh local container, or one of the run's warm desktops when the run has a pool. */
  async start(spec) {
    if (spec.pool) {
      const { takeDesktopFrom } = await import('./warm-pool-endpoint.ts');
      return takeDesktopFrom(spec.pool);
    }
    const { startDesktop } = await import('./container.ts');
    const desktop = await startDesktop({ image: spec.image, limits: spec.limits, hostAddress: spec.hostAddress, runId: spec.runId });
    return {
      client: desktop.client,
      cdp: desktop.cdp,
      vlc: desktop.vlc,
      id: desktop.containerId,
      isAlive: () => answers(desktop.client),
      stop: () => desktop.stop(),
    };
  },

  /** The Docker engine answers and the desktop image is there (it is never pulled). */
  async prepare(options) {
    const { assertDesktopImage } = await import('../../image.ts');
    await assertDesktopImage(options.image);
  },

  /** desktop.warm desktops, one per worker unless it says otherwise (0: none). */
  async serveWarmDesktops(options, { runId, workers, taskRuns: limit }) {
    const size = options.warm ?? workers;
    if (!size) return undefined;
    const { image, limits, hostAddress } = options;
    const { startDesktop } = await import('./container.ts');
    const { WarmDesktopPool } = await import('./warm-pool.ts');
    const { serveDesktopPool } = await import('./warm-pool-endpoint.ts');
    // At most one desktop per task test of the run (the plugin counts them; a filtered or sharded run takes fewer).
    return serveDesktopPool(new WarmDesktopPool({ size, limit, start: () => startDesktop({ image, limits, hostAddress, runId }) }));
  },

  async image(options) {
    return options.image ?? (await import('../../image.ts')).desktopImage();
  },
});
