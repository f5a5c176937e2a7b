// The desktop providers: where a task's desktop comes from. A provider is a folder beside this file whose index.ts
// exports its DesktopProviderDefinition (provider.ts), and one line in the list below: the `desktop` run option, its
// type (DesktopSpec) and the registry that starts desktops by name are all made from that list.
import type { z } from 'zod';
import { docker } from './docker/index.ts';
import { type DesktopHandle, type DesktopProviderDefinition, type DesktopRunContext, registerDesktopProviders } from './provider.ts';
import { remote } from './remote/index.ts';

/** Every desktop provider, one line each, in the order messages name them. */
export const desktopProviders = registerDesktopProviders([
  docker, // a fresh local container per task (the default)
  remote, // an already running OSWorld-protocol server, neither started nor stopped
]);

/** The `desktop` run option (src/contract/run-options.ts): one member per provider, told apart by `provider`. */
export const desktopOptions = desktopProviders.options;

/** The `desktop` option when it is left out. */
export const DEFAULT_DESKTOP = { provider: docker.name } satisfies z.input<typeof desktopOptions>;

/** How a task's desktop is had: a provider's options, as the `desktop` option gives them, and what the run adds. */
export type DesktopSpec = z.output<typeof desktopOptions> & DesktopRunContext;

/** The provider `spec` names; an unknown name is an OptionsError with the close ones. */
export function desktopProviderOf(spec: { provider: string }): DesktopProviderDefinition {
  return desktopProviders.of(spec);
}

export function startDesktopFor(spec: DesktopSpec): Promise<DesktopHandle> {
  return desktopProviderOf(spec).start(spec);
}
