// Adding a desktop provider is its folder and one line in src/desktop/providers/index.ts: the `desktop` option, its
// type and the registry that starts desktops by name are made from that list. A third provider from a test folder
// (./providers/vm/, only a registry entry: it starts no desktop) registered beside deskbench's two shows it.
import { describe, expect, expectTypeOf, test } from 'vitest';
import type { z } from 'zod';
import { DEFAULT_RUN_OPTIONS } from '../../src/contract/run-options.ts';
import { desktopImage } from '../../src/desktop/image.ts';
import { docker } from '../../src/desktop/providers/docker/index.ts';
import { type DesktopSpec, desktopProviderOf, desktopProviders } from '../../src/desktop/providers/index.ts';
import { registerDesktopProviders } from '../../src/desktop/providers/provider.ts';
import { remote } from '../../src/desktop/providers/remote/index.ts';
import { OptionsError } from '../../src/errors.ts';
import { resolveOptions } from '../../src/node/plugin/options.ts';
import { vm } from './providers/vm/index.ts';

/** deskbench's providers and the test's, registered as index.ts registers deskbench's. */
const withVm = registerDesktopProviders([...desktopProviders.definitions, vm]);

/** The option's issues for `value`, each as `path: message`. */
function issuesOf(value: unknown): string[] {
  const parsed = withVm.options.safeParse(value);
  return parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

describe('a third provider, registered', () => {
  test('the desktop option accepts its options, with its own defaults, beside the others', () => {
    expect(withVm.options.parse({ provider: 'vm', host: 'vm1' })).toEqual({ provider: 'vm', host: 'vm1', slots: 1 });
    expect(withVm.options.parse({ provider: 'docker', warm: 0 })).toEqual({ provider: 'docker', warm: 0 });
    expect(withVm.options.parse({ provider: 'remote', url: 'http://10.0.0.5:5000' })).toEqual({ provider: 'remote', url: 'http://10.0.0.5:5000' });
  });

  test("its schema's errors name its fields, with its messages", () => {
    expect(issuesOf({ provider: 'vm' })).toEqual(['host: expected `host`: the name of the VM host']);
    expect(issuesOf({ provider: 'vm', host: 'vm1', slots: 0 })).toEqual(['slots: expected at least one slot']);
    expect(issuesOf({ provider: 'vm', host: 'vm1', slots: 1.5 })).toEqual(['slots: expected a whole number of slots']);
    // The others keep theirs.
    expect(issuesOf({ provider: 'docker', warm: -1 })).toEqual(['warm: expected a whole number of desktops (0 disables)']);
  });

  test('an unknown provider is refused, naming every registered one', () => {
    expect(issuesOf({ provider: 'hyperv' })).toEqual(["provider: Invalid discriminator value. Expected 'docker' | 'remote' | 'vm'"]);
    expect(issuesOf({})).toEqual(["provider: Invalid discriminator value. Expected 'docker' | 'remote' | 'vm'"]);
    expect(() => withVm.of({ provider: 'vn' })).toThrow(OptionsError);
    expect(() => withVm.of({ provider: 'vn' })).toThrow('unknown desktop provider "vn"; did you mean "vm"?');
  });

  test('the registry gives its definition, hooks included, by name', async () => {
    expect(withVm.of({ provider: 'vm' })).toBe(vm);
    await expect(withVm.of({ provider: 'vm' }).image?.({ provider: 'vm', host: 'vm1', slots: 1 })).resolves.toBe('vm1/desktop');
  });

  test('its options are a member of the option type', () => {
    expectTypeOf<z.output<typeof withVm.options>['provider']>().toEqualTypeOf<'docker' | 'remote' | 'vm'>();
    expectTypeOf<Extract<z.output<typeof withVm.options>, { provider: 'vm' }>>().toEqualTypeOf<{ provider: 'vm'; host: string; slots: number }>();
  });
});

describe("deskbench's providers", () => {
  test('the plugin\'s desktop option is made from the list: an unknown provider names exactly the listed ones', () => {
    const names = desktopProviders.definitions.map((provider) => `'${provider.name}'`).join(' | ');
    expect(names).toBe("'docker' | 'remote'");
    expect(() => resolveOptions({ tasks: 'tasks', desktop: { provider: 'vm' } } as never)).toThrow(`invalid option desktop.provider: Invalid discriminator value. Expected ${names}`);
  });

  test("DesktopSpec is the listed providers' options (and what the run adds), by type", () => {
    expectTypeOf<DesktopSpec['provider']>().toEqualTypeOf<'docker' | 'remote'>();
    expectTypeOf<Extract<DesktopSpec, { provider: 'remote' }>['url']>().toEqualTypeOf<string>();
    expectTypeOf<Extract<DesktopSpec, { provider: 'docker' }>['warm']>().toEqualTypeOf<number | undefined>();
  });

  test('left out, the desktop is a local container', () => {
    expect(DEFAULT_RUN_OPTIONS.desktop).toEqual({ provider: 'docker' });
    expect(desktopProviderOf(DEFAULT_RUN_OPTIONS.desktop)).toBe(docker);
  });

  test("docker's hooks: the image its desktops run, and no warm pool when there is to be none", async () => {
    await expect(docker.image?.({ provider: 'docker' })).resolves.toBe(desktopImage());
    await expect(docker.image?.({ provider: 'docker', image: 'mine:1' })).resolves.toBe('mine:1');
    const run = { runId: 'providers-test', workers: 2, taskRuns: 3 };
    await expect(docker.serveWarmDesktops?.({ provider: 'docker', warm: 0 }, run)).resolves.toBeUndefined();
    await expect(docker.serveWarmDesktops?.({ provider: 'docker' }, { ...run, workers: 0 })).resolves.toBeUndefined();
  });

  test('remote needs nothing of the run and names no image', () => {
    expect(desktopProviderOf({ provider: 'remote' })).toBe(remote);
    expect([remote.prepare, remote.serveWarmDesktops, remote.image]).toEqual([undefined, undefined, undefined]);
  });
});
