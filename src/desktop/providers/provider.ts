// What a desktop provider is: a DesktopProviderDefinition — its `desktop` option (a zod object told apart by its
// `provider` name), how it starts a task's desktop, and the hooks of a run that code outside its folder calls instead of
// testing its name. Each provider is a folder beside this file; index.ts lists them, one line each.
import { z } from 'zod';
import { OptionsError } from '../../errors.ts';
import { Registry } from '../../shared/registry.ts';
import type { DesktopClient } from '../client.ts';

/** A service of the desktop the host talks to: its URL, and the headers every request to it carries. */
export interface DesktopService {
  url: string;
  headers: Record<string, string>;
}

export interface DesktopHandle {
  client: DesktopClient;
  /** The desktop's Chrome DevTools endpoint (its port 9222), for CDP setup steps and getters. */
  cdp?: DesktopService;
  /** The desktop's VLC HTTP interface (its port 8080). */
  vlc?: DesktopService;
  /** Container id or server URL, for messages. */
  id: string;
  /** False once the desktop is gone (container stopped or killed). */
  isAlive(): Promise<boolean>;
  stop(): Promise<void>;
}

/** Where the run's pool of warm desktops answers (vitest's main process), for the workers to take one there. */
export interface DesktopPoolAddress {
  url: string;
  token: string;
}

/** A pool of warm desktops a provider serves for a run (serveWarmDesktops). */
export interface ServedDesktopPool {
  address: DesktopPoolAddress;
  /** Closes the endpoint, then the pool (its waiting desktops are stopped). */
  close(): Promise<void>;
}

/** What the run adds to a provider's options before a task starts its desktop (worker/runtime.ts). */
export type DesktopRunContext = {
  /** The run whose label a started desktop carries (default: this process's, run-id.ts). */
  runId?: string;
  /** The run's pool of warm desktops, set when its provider serves one (serveWarmDesktops): take one there. */
  pool?: DesktopPoolAddress;
};

/** The run a provider serves warm desktops for (node/plugin/global-setup.ts). */
interface WarmDesktopsRun {
  runId: string;
  /** vitest's workers for the project (its maxWorkers). */
  workers: number;
  /** The run's task tests (task files × repeats): the most desktops it can take. */
  taskRuns: number;
}

/** The `desktop` option's object for one provider: `provider`, the provider's name, beside the provider's own fields. */
export type DesktopOptionsSchema<Name extends string = string> = z.ZodObject<{ provider: z.ZodLiteral<Name> } & z.ZodRawShape>;

/** One desktop provider: its options, how a task's desktop starts, and what the run asks of it. */
export interface DesktopProviderDefinition<Name extends string = string, Options extends DesktopOptionsSchema<Name> = DesktopOptionsSchema<Name>> {
  /** Its name in the option: `desktop: { provider: name, … }` (the literal of its options' `provider`). */
  readonly name: Name;
  /** Its member of the `desktop` option (src/contract/run-options.ts): its fields, their defaults and their messages. */
  readonly options: Options;
  /** A desktop for one task, started or connected to; the task stops it when done. */
  start(spec: z.output<Options> & DesktopRunContext): Promise<DesktopHandle>;
  /**
   * Once per run in vitest's main process, before any test (node/plugin/global-setup.ts): what its desktops need,
   * checked once with one clear error rather than every task failing alike. None: nothing to check.
   */
  prepare?(options: z.output<Options>): Promise<void>;
  /**
   * The run's warm desktops, started ahead of its tasks in vitest's main process (node/plugin/global-setup.ts) and
   * served to its workers, whose specs then carry the pool's address (DesktopRunContext.pool). None, or no hook:
   * each task starts its own.
   */
  serveWarmDesktops?(options: z.output<Options>, run: WarmDesktopsRun): Promise<ServedDesktopPool | undefined>;
  /**
   * The image its desktops run, which a task's environment records with the engine's id of it
   * (desktop/environment.ts). None, or no hook: not known (a server someone else runs).
   */
  image?(options: z.output<Options>): Promise<string | undefined>;
}

/** A provider's definition as written, its spec's type taken from its options (`start(spec)` needs no annotation). */
export function defineDesktopProvider<Name extends string, Options extends DesktopOptionsSchema<Name>>(
  definition: DesktopProviderDefinition<Name, Options>,
): DesktopProviderDefinition<Name, Options> {
  return definition;
}

/**
 * Providers registered by name, with the `desktop` option made from their options: one member each, told apart by
 * `provider`, so an unknown one names them all. index.ts registers deskbench's; its type follows the list.
 */
export function registerDesktopProviders<const Definitions extends readonly [DesktopProviderDefinition, ...DesktopProviderDefinition[]]>(definitions: Definitions) {
  const registry = new Registry<DesktopProviderDefinition>('desktop provider');
  for (const definition of definitions) registry.define(definition.name, definition);
  type Options = Definitions[number]['options'];
  return {
    definitions,
    /** The `desktop` option (src/contract/run-options.ts). */
    options: z.discriminatedUnion('provider', definitions.map((definition) => definition.options) as unknown as [Options, ...Options[]]),
    /** The provider `spec` names; an unknown name is an OptionsError with the close ones. */
    of(spec: { provider: string }): DesktopProviderDefinition {
      const provider = registry.get(spec.provider);
      if (!provider) throw new OptionsError(registry.unknownMessage(spec.provider));
      return provider;
    },
  };
}

/** Whether the desktop's control server answers within `timeoutMs`. */
export async function answers(client: DesktopClient, timeoutMs = 5_000): Promise<boolean> {
  try {
    await client.request('GET', '/platform', undefined, timeoutMs);
    return true;
  } catch {
    return false;
  }
}
