// The desktop providers: where a task's desktop comes from. A provider is a folder beside this file exporting its
// DesktopProviderDefinition (provider.ts) and one line in the list below; the `desktop` run option, its type
// (DesktopSpec) and the registry that starts desktops by name are all made from that list.
import type { z } from 'zod';
import { OptionsError } from '../../errors.ts';
import { Registry } from '../../shared/registry.ts';
import { docker } from './docker/index.ts';
import { type DesktopHandle, type DesktopProviderDefinition, type DesktopRunContext, desktopOptionsOf } from './provider.ts';
import { remote } from './remote/index.ts';

/** Every desktop provider, one line each, in the order messages name them. */
const desktopProviders = [
  docker, // a fresh local container per task (the default)
  remote, // an already running OSWorld-protocol server, neither started nor stopped
] as const;

/** The desktop providers by name, the same registry shape as metrics, getters, setup steps, agents and formats. */
const providers = new Registry<DesktopProviderDefinition>('desktop provider');
for (const provider of desktopProviders) providers.define(provider.name, provider);

/** The `desktop` run option (src/contract/run-options.ts): one member per provider, told apart by `provider`. */
export const desktopOptions = desktopOptionsOf(desktopProviders);

/** The `desktop` option when it is left out. */
export const DEFAULT_DESKTOP = { provider: docker.name } satisfies z.input<typeof desktopOptions>;

/** How a task's desktop is had: a provider's options, as the `desktop` option gives them, and what the run adds. */
export type DesktopSpec = z.output<typeof desktopOptions> & DesktopRunContext;

/** The provider `spec` names; an unknown name is an OptionsError naming the close ones. */
export function desktopProviderOf(spec: { provider: string }): DesktopProviderDefinition {
  const provider = providers.get(spec.provider);
  if (!provider) throw new OptionsError(providers.unknownMessage(spec.provider));
  return provider;
}

export function startDesktopFor(spec: DesktopSpec): Promise<DesktopHandle> {
  return desktopProviderOf(spec).start(spec);
}
