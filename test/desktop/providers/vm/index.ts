// A third desktop provider, written as a real one would be (a folder with its DesktopProviderDefinition), to show
// that registering it is all it takes for the `desktop` option to accept it (test/desktop/providers.test.ts). It is
// only a registry entry: it starts no desktop.
import { z } from 'zod';
import { DesktopUnavailableError } from '../../../../src/desktop/client.ts';
import { defineDesktopProvider } from '../../../../src/desktop/providers/provider.ts';

export const vm = defineDesktopProvider({
  name: 'vm',
  options: z.object({
    provider: z.literal('vm'),
    host: z.string({ error: 'expected `host`: the name of the VM host' }),
    slots: z.int({ error: 'expected a whole number of slots' }).positive({ error: 'expected at least one slot' }).default(1),
  }),
  async start({ host }) {
    throw new DesktopUnavailableError(`the test provider "vm" starts no desktop (asked for one on ${host})`);
  },
  async image({ host }) {
    return `${host}/desktop`;
  },
});
