// The open registry of setup step types (OSWorld `config[].type`, Spider2-V's types, GUI-OS `config[].func`).
// Built-in families register from `builtins.ts`; users add their own with `defineSetupStep`.
import type { DesktopClient } from '../desktop/client.ts';
import { Registry } from '../shared/registry.ts';
import type { DesktopService } from '../desktop/providers/provider.ts';

export interface SetupContext {
  desktop: DesktopClient;
  /** Folder relative task files resolve against. */
  taskDir: string;
  /** The task file, named in errors about the paths it gives. */
  taskFile?: string;
  /** Per-task cache folder (command stdout/stderr land here for the cache_file getter). */
  cacheDir: string;
  /** Resolves a remote URL to a local file (download cache, offline mappings); throws a clear error. */
  fetchUrl(url: string): Promise<string>;
  /** The desktop's Chrome DevTools endpoint (its port 9222). */
  cdp?: DesktopService;
  /** Substitutions for {CLIENT_PASSWORD}, {SCREEN_WIDTH}, … */
  vars: Record<string, string>;
  signal?: AbortSignal;
  log(message: string): void;
  /**
   * Waits, after a program was launched, until the desktop is idle (at most the run's settleAfterSetup, and 20 s).
   * The steps that follow a launch in OSWorld's tasks act on the app at fixed times (sleep 5 s, then press keys):
   * OSWorld's VM has the app up by then, a loaded host may not, and the keys would go nowhere.
   */
  settleAfterLaunch?(): Promise<void>;
}

export type SetupStep = (ctx: SetupContext, parameters: Record<string, unknown>) => Promise<void>;

export { SkipTask } from '../errors.ts';

/** The setup steps by type, the same registry shape as metrics, getters and agents (with the did-you-mean). */
export const setupSteps = new Registry<SetupStep>('setup step');

export function defineSetupStep(type: string, step: SetupStep): void {
  setupSteps.define(type, step);
}

