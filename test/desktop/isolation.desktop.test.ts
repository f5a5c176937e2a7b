// The docker provider's desktops and their isolation (docs/security.md), on two real containers of one run: labels,
// ports and tokens, what the host publishes, what answers without the token, what one desktop of a run can reach of
// another, where the secrets are, the resource limits, and the removal of a run's containers by its label.
import { execFileSync } from 'node:child_process';
import { getContainerRuntimeClient } from 'testcontainers';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { removeContainers } from '../../src/desktop/cleanup.ts';
import { type Desktop, startDesktop } from '../../src/desktop/providers/docker/container.ts';
import { desktopImage } from '../../src/desktop/image.ts';
import { ownRunId } from '../helpers/desktops.ts';

const hasImage = (() => {
  try {
    execFileSync('docker', ['image', 'inspect', desktopImage()], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe.skipIf(!hasImage)(`desktop isolation (needs ${desktopImage()})`, () => {
  const runId = ownRunId('isolation');
  let a: Desktop;
  let b: Desktop;

  // Two GNOME desktops starting at once on a small machine can take more than the default 60 s.
  beforeAll(async () => {
    [a, b] = await Promise.all([startDesktop({ runId, limits: { memory: '3g', pids: 2048 } }), startDesktop({ runId })]);
    // The socat bridge OSWorld tasks start in front of Chrome listens on every interface of the container.
    await a.client.launch(['google-chrome', '--remote-debugging-port=1337', 'about:blank']);
    await a.client.launch(['socat', 'tcp-listen:9222,fork', 'tcp:localhost:1337']);
  }, 240_000);

  afterAll(async () => {
    await removeContainers({ runId });
  });

  test('each desktop is labelled with the run id, has ports of its own and a fresh token it alone answers', async () => {
    expect(a.token).not.toBe(b.token);
    expect(a.token.length).toBeGreaterThanOrEqual(32);
    expect(a.url).toMatch(/^http:\/\/[^:]+:\d+$/);
    expect(new Set([a.url, a.cdp.url, a.vlc.url, b.url]).size).toBe(4);
    expect((await fetch(`${a.url}/platform`, { headers: { authorization: `Bearer ${b.token}` } })).status).toBe(401);
    expect(await a.client.platform()).toBe('Linux');
    const info = await (await getContainerRuntimeClient()).container.dockerode.getContainer(a.containerId).inspect();
    expect(info.Config.Labels).toMatchObject({ deskbench: '1', 'deskbench.run': runId });
    expect(info.HostConfig.ShmSize).toBe(1024 * 1024 * 1024);
  });

  test('only the control server and its two fronts are published, and only on 127.0.0.1', () => {
    const ports = execFileSync('docker', ['port', a.containerId], { encoding: 'utf8' }).trim().split('\n').sort();
    expect(ports).toHaveLength(3);
    for (const line of ports) expect(line).toMatch(/^500[012]\/tcp -> 127\.0\.0\.1:\d+$/);
  });

  test('every published port refuses a request without the token, or with another desktop’s token', async () => {
    await expect.poll(async () => (await fetch(`${a.cdp.url}/json/version`, { headers: a.cdp.headers })).status, { timeout: 30_000 }).toBe(200);
    for (const url of [`${a.url}/platform`, `${a.cdp.url}/json/version`, `${a.vlc.url}/requests/status.xml`]) {
      expect((await fetch(url)).status, url).toBe(401);
      expect((await fetch(url, { headers: { authorization: `Bearer ${b.token}` } })).status, url).toBe(401);
    }
    // Nor does a WebSocket upgrade to DevTools get through without it.
    const version = (await (await fetch(`${a.cdp.url}/json/version`, { headers: a.cdp.headers })).json()) as { webSocketDebuggerUrl: string };
    const path = new URL(version.webSocketDebuggerUrl).pathname;
    const upgrade = await fetch(`${a.cdp.url}${path}`, { headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==' } }).catch((error: Error) => error);
    expect(upgrade instanceof Error ? 'refused' : upgrade.status).not.toBe(101);
  });

  test('another desktop of the same run cannot reach this one: not its server, not its DevTools bridge', async () => {
    const docker = (await getContainerRuntimeClient()).container.dockerode;
    const networks = (await docker.getContainer(a.containerId).inspect()).NetworkSettings.Networks;
    const [ip] = Object.values(networks).map((network) => network.IPAddress);
    expect(ip).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    const probe = (desktop: Desktop, port: number) =>
      desktop.client.execute(['curl', '-s', '-o', '/dev/null', '-m', '3', '-w', '%{http_code}', `http://${ip}:${port}/json/version`]);
    // From inside `a` its own address answers (so the probe itself works) …
    expect((await probe(a, 9222)).output).toBe('200');
    expect((await probe(a, 5000)).output).toBe('401');
    // … from `b`, on the same run's network, nothing does.
    expect((await probe(b, 9222)).output).toBe('000');
    expect((await probe(b, 5000)).output).toBe('000');
  });

  test("the token is in no process environment the desktop's user can read, and the secrets file is gone", async () => {
    const environments = await a.client.execute('cat /proc/[0-9]*/environ 2>/dev/null | tr "\\0" "\\n"', { shell: true });
    expect(environments.output).toContain('DISPLAY=:0'); // the session's processes were read …
    expect(environments.output).not.toContain(a.token); // … and none carries the token
    const pid1 = await a.client.execute(['cat', '/proc/1/environ']);
    expect(pid1.returncode).not.toBe(0); // PID 1 is root's
    expect((await a.client.execute(['ls', '/run/deskbench'])).returncode).not.toBe(0);
    const inspect = await (await getContainerRuntimeClient()).container.dockerode.getContainer(a.containerId).inspect();
    expect(JSON.stringify(inspect.Config.Env)).not.toContain(a.token);
  });

  test('memory, CPU and process limits are set (defaults, or the options given)', async () => {
    const docker = (await getContainerRuntimeClient()).container.dockerode;
    const limited = (await docker.getContainer(a.containerId).inspect()).HostConfig;
    expect(limited.Memory).toBe(3 * 1024 ** 3);
    expect(limited.PidsLimit).toBe(2048);
    const defaults = (await docker.getContainer(b.containerId).inspect()).HostConfig;
    expect(defaults.Memory).toBe(4 * 1024 ** 3);
    expect(defaults.PidsLimit).toBe(4096);
    expect(defaults.NanoCpus).toBeGreaterThan(0);
    expect(defaults.NanoCpus).toBeLessThanOrEqual(2e9);
  });

  // Last: it removes both desktops.
  test("removeContainers removes exactly the run's containers, and then finds none", async () => {
    expect(new Set(await removeContainers({ runId }))).toEqual(new Set([a.containerId, b.containerId]));
    const docker = (await getContainerRuntimeClient()).container.dockerode;
    expect(await docker.listContainers({ all: true, filters: { label: [`deskbench.run=${runId}`] } })).toEqual([]);
    expect(await removeContainers({ runId })).toEqual([]);
  });
});
