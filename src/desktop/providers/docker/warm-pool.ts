// Desktops started ahead of the tasks that will use them, so that a task does not wait the seconds a GNOME desktop
// takes to start. They stay fresh: each desktop is handed out once and never comes back (the task stops it), and a
// replacement starts as soon as the one handed out is ready (not before: it would slow the start the task waits for).
// The pool fills on the first request, so a run that starts no desktop (`vitest list`, everything filtered out or
// resumed) starts none. It lives in vitest's main process (src/node/plugin/global-setup.ts); workers ask it over
// warm-pool-endpoint.ts.
import type { Desktop } from './container.ts';
import { answers } from '../provider.ts';
import { DesktopUnavailableError } from '../../client.ts';

/** Waiting desktops tried before the caller's own start (they only fail when the machine kills them). */
const MAX_TRIES = 3;

export interface WarmPoolOptions {
  /** How many desktops to keep started (ready or starting) beside those handed out. */
  size: number;
  /**
   * The most desktops the run can take (its task tests): the pool starts no more than that in all, so the last tasks
   * do not share the machine with desktops nobody will use. Default: no limit.
   */
  limit?: number;
  start(): Promise<Desktop>;
  /** Whether a waiting desktop still answers; one that died while waiting is discarded. Default: GET /platform. */
  isAlive?(desktop: Desktop): Promise<boolean>;
}

export class WarmDesktopPool {
  /** Desktops started or starting, not handed out yet, oldest first. */
  private readonly waiting: Promise<Desktop>[] = [];
  /** Desktops started so far, waiting or handed out (a caller's own start included). */
  private started = 0;
  private closed = false;
  private readonly options: WarmPoolOptions;

  constructor(options: WarmPoolOptions) {
    this.options = options;
  }

  /** A fresh, ready desktop of its own for the caller, who stops it when done. Throws when none could be started. */
  async take(): Promise<Desktop> {
    this.assertOpen();
    // The waiting desktops, oldest first; one that died while waiting is discarded, not handed out.
    for (let tries = 0; tries < MAX_TRIES; tries++) {
      const queued = this.waiting.shift();
      if (!queued) break;
      const desktop = await queued.catch(() => undefined); // a failed start: the caller's own start below says why
      if (!desktop) continue;
      this.fill();
      if (await this.isAlive(desktop)) return this.handOut(desktop);
      void desktop.stop().catch(() => {});
    }
    // None waiting: the caller's own start, whose error is the caller's (as without the pool). The pool refills only
    // after a start succeeded, so with the engine down it does not retry in a loop.
    const desktop = await this.startOne();
    this.fill();
    return this.handOut(desktop);
  }

  /** Resolves once every desktop now waiting has started (or failed to). */
  async settled(): Promise<void> {
    await Promise.allSettled(this.waiting);
  }

  /** Hands out nothing more and stops every desktop it still holds, those still starting included. */
  async close(): Promise<void> {
    this.closed = true;
    const held = this.waiting.splice(0);
    await Promise.all(held.map((desktop) => desktop.then((d) => d.stop()).catch(() => {})));
  }

  private isAlive(desktop: Desktop): Promise<boolean> {
    return this.options.isAlive ? this.options.isAlive(desktop) : answers(desktop.client, 2_000);
  }

  private assertOpen(): void {
    if (this.closed) throw new DesktopUnavailableError('the run is ending: its desktop pool hands out no more desktops');
  }

  /** The pool may have closed while the caller waited: then the desktop goes, and the caller gets none. */
  private async handOut(desktop: Desktop): Promise<Desktop> {
    if (this.closed) {
      await desktop.stop().catch(() => {});
      this.assertOpen();
    }
    return desktop;
  }

  private fill(): void {
    const limit = this.options.limit ?? Number.POSITIVE_INFINITY;
    while (!this.closed && this.waiting.length < this.options.size && this.started < limit) this.waiting.push(this.startOne());
  }

  private startOne(): Promise<Desktop> {
    this.started++;
    const started = this.options.start();
    // A start that fails while nobody waits for it leaves the pool (the next request starts another); it must not
    // count as an unhandled rejection meanwhile.
    started.catch(() => {
      const index = this.waiting.indexOf(started);
      if (index >= 0) this.waiting.splice(index, 1);
    });
    return started;
  }
}
