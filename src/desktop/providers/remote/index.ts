// The `remote` provider: an already running OSWorld-protocol server — an OSWorld VM, or our container on another host
// — which deskbench neither starts nor stops. Its CDP and VLC ports are assumed on the same host, as on an OSWorld VM:
// 9222 with no authentication, 8080 with OSWorld's VLC password.
import { z } from 'zod';
import { OptionsError } from '../../../errors.ts';
import { DesktopClient, DesktopRequestError, DesktopUnavailableError } from '../../client.ts';
import { answers, defineDesktopProvider } from '../provider.ts';

export const remote = defineDesktopProvider({
  name: 'remote',
  options: z.object({ provider: z.literal('remote'), url: z.string().url(), token: z.string().optional() }),

  /** A server someone else runs: it must answer GET /platform with the token given. */
  async start({ url, token }) {
    const client = new DesktopClient({ url, token });
    try {
      await client.request('GET', '/platform', undefined, 10_000);
    } catch (error) {
      if (error instanceof DesktopRequestError && error.status === 401) {
        throw new OptionsError(`remote desktop ${url} refused the token (HTTP 401): pass the token its server was started with (desktop.token)`);
      }
      throw new DesktopUnavailableError(`remote desktop ${url} does not answer GET /platform (${(error as Error).message}): is the OSWorld server running there (port 5000)?`);
    }
    const withPort = (port: number) => {
      const u = new URL(url);
      u.port = String(port);
      return u.origin;
    };
    return {
      client,
      cdp: { url: withPort(9222), headers: {} },
      vlc: { url: withPort(8080), headers: { authorization: `Basic ${Buffer.from(':password').toString('base64')}` } },
      id: url,
      isAlive: () => answers(client),
      stop: async () => {},
    };
  },
});
