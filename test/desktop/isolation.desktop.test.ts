// Desktop isolation (docs/security.md), on real containers: what the host publishes, what answers without the token,
// what one desktop of a run can reach of another, where the secrets are, and the resource limits.
import { execFileSync } from 'node:child_process';
import { getContainerRuntimeClient } from 'testcontainers';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { removeContainers } from '../../src/desktop/cleanup.ts';
import { type Desktop, parseSize, startDesktop } from '../../src/desktop/docker-provider.ts';
import { desktopImage } from '../../src/desktop/image.ts';

const hasImage = (() => {
  try {
    execFileSync('docker', ['image', 'inspect', desktopImage()], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe.skipIf(!hasImage)(`desktop isolation (needs ${desktopImage()})`, () => {
  const runId = `test-isolation-${Date.now()}`;
  let a: Desktop;
  let b: Desktop;

  beforeAll(async () => {
    [a, b] = await Promise.all([startDesktop({ runId, limits: { memory: '3g', pids: 2048 } }), startDesktop({ runId })]);
    // The socat bridge OSWorld tasks start in front of Chrome listens on every interface of the container.
    await a.client.launch(['google-chrome', '--remote-debugging-port=1337', 'about:blank']);
    await a.client.launch(['socat', 'tcp-listen:9222,fork', 'tcp:localhost:1337']);
  }, 120_000);

  afterAll(async () => {
    await removeContainers({ runId });
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
});

describe('parseSize', () => {
  test("Docker's units, and a clear error for anything else", () => {
    expect(parseSize('4g')).toBe(4 * 1024 ** 3);
    expect(parseSize('512m')).toBe(512 * 1024 ** 2);
    expect(parseSize('1.5GiB')).toBe(1.5 * 1024 ** 3);
    expect(parseSize(1000)).toBe(1000);
    expect(() => parseSize('lots')).toThrow(/memory must be a number of bytes or a size such as '4g'/);
  });
});
