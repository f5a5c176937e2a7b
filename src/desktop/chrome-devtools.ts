// Connecting playwright to the desktop's Chrome over the DevTools protocol. Our container serves DevTools through a
// token-guarded front, so every request carries the service's headers; and Chrome names its WebSocket endpoint after
// the address it was asked on inside the desktop, so that endpoint is moved onto the front's host and port.
import type { Browser } from 'playwright-core';
import type { DesktopService } from './providers/provider.ts';
import { DesktopUnavailableError } from './client.ts';

export async function connectOverDevTools(cdp: DesktopService, timeoutMs = 30_000): Promise<Browser> {
  const version = await fetch(new URL('/json/version', cdp.url), { headers: cdp.headers, signal: AbortSignal.timeout(timeoutMs) }).catch(
    (error: Error) => {
      throw new DesktopUnavailableError(`Chrome's DevTools endpoint ${cdp.url} does not answer: ${error.cause ?? error.message}`);
    },
  );
  if (!version.ok) throw new DesktopUnavailableError(`Chrome's DevTools endpoint ${cdp.url} answered HTTP ${version.status}: ${(await version.text()).slice(0, 200)}`);
  const { webSocketDebuggerUrl } = (await version.json()) as { webSocketDebuggerUrl?: string };
  if (!webSocketDebuggerUrl) throw new DesktopUnavailableError(`Chrome's DevTools endpoint ${cdp.url} gave no webSocketDebuggerUrl`);
  const endpoint = new URL(webSocketDebuggerUrl);
  const front = new URL(cdp.url);
  endpoint.host = front.host;
  endpoint.protocol = front.protocol === 'https:' ? 'wss:' : 'ws:';
  // Loaded when a task first talks to Chrome: playwright-core is the heaviest module deskbench imports.
  const { chromium } = await import('playwright-core');
  return chromium.connectOverCDP(endpoint.toString(), { headers: cdp.headers, timeout: timeoutMs });
}
