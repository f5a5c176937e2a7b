// Setup steps against a real desktop container (deskbench/desktop:latest), one container for the whole file. Each
// step's effect is checked through the desktop itself: files read back, wmctrl, Chrome over CDP. Skipped (decided at
// run time) only when the image has not been built on this machine. DESKBENCH_TEST_DESKTOP="<server url>,<token>,<cdp url>"
// runs the file against a desktop that is already running instead.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { registerAdapters } from '../../src/adapters/index.ts';
import { connectOverDevTools } from '../../src/desktop/chrome-devtools.ts';
import { desktopImage } from '../../src/desktop/image.ts';
import type { DesktopHandle } from '../../src/desktop/providers/provider.ts';
import { createFileResolver } from '../../src/setup/downloads.ts';
import { SetupStepError } from '../../src/setup/errors.ts';
import { setupVars } from '../../src/setup/parameters.ts';
import { SkipTask, type SetupContext } from '../../src/setup/registry.ts';
import { runSetupSteps } from '../../src/setup/run-steps.ts';
import type { SetupStepSpec, Task } from '../../src/task/types.ts';
import { createTaskEnv } from '../../src/worker/task-env.ts';
import { takeDesktop } from '../helpers/desktops.ts';

const IMAGE = desktopImage();
const hasImage = spawnSync('docker', ['image', 'inspect', IMAGE], { stdio: 'ignore' }).status === 0;
const title = hasImage ? 'setup steps on a real desktop' : `setup steps on a real desktop (skipped: docker image ${IMAGE} is missing)`;

describe.skipIf(!hasImage)(title, () => {
  let desktop: DesktopHandle;
  let ctx: SetupContext;
  let server: Server;
  let hostUrl: string;
  const hits = new Map<string, number>();
  const logs: string[] = [];
  const root = mkdtempSync(join(tmpdir(), 'deskbench-setup-'));
  const taskDir = join(root, 'task');
  const cacheDir = join(root, 'cache');

  const run = (steps: SetupStepSpec[]) => runSetupSteps(steps, ctx, { phase: 'config' });
  const step = (type: string, parameters: Record<string, unknown>) => run([{ type, parameters }]);
  const sh = async (script: string) => (await desktop.client.execute(['bash', '-c', script])).output;
  const text = async (path: string) => (await desktop.client.readFile(path))?.toString() ?? null;

  beforeAll(async () => {
    registerAdapters();
    mkdirSync(taskDir, { recursive: true });
    mkdirSync(cacheDir, { recursive: true });
    // Host files for `download`: the host fetches them, so a server on the host's loopback is enough.
    server = createServer((request, response) => {
      hits.set(request.url ?? '', (hits.get(request.url ?? '') ?? 0) + 1);
      response.end(`served ${request.url}`);
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    hostUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const { startDesktopFor } = await import('../../src/desktop/providers/index.ts');
    const dev = process.env.DESKBENCH_TEST_DESKTOP?.split(',');
    desktop = dev ? { ...(await startDesktopFor({ provider: 'remote', url: dev[0], token: dev[1] })), cdp: { url: dev[2], headers: {} } } : await takeDesktop();
    ctx = {
      desktop: desktop.client,
      taskDir,
      cacheDir,
      fetchUrl: createFileResolver({ cacheDir: join(root, 'downloads'), taskDir }),
      cdp: desktop.cdp,
      vars: setupVars({ password: 'password', screen: await desktop.client.screenSize() }),
      log: (message) => {
        logs.push(message);
        if (process.env.SETUP_DEBUG) console.log(new Date().toISOString(), message);
      },
    };
  }, 300_000);

  afterAll(async () => {
    await desktop?.stop();
    await new Promise<void>((done) => server?.close(() => done()));
  });

  test('download: the host fetches the URL (once) and the bytes land at the path', async () => {
    const files = [{ url: `${hostUrl}/data/report.xlsx`, path: '/home/user/Desktop/report.xlsx' }];
    await step('download', { files });
    await step('download', { files: [{ ...files[0], path: '/home/user/Documents/copy.xlsx' }] });
    expect(await text('/home/user/Desktop/report.xlsx')).toBe('served /data/report.xlsx');
    expect(await text('/home/user/Documents/copy.xlsx')).toBe('served /data/report.xlsx');
    expect(hits.get('/data/report.xlsx')).toBe(1);
  });

  test('upload_file and GUI-OS upload_file_to_vm send task files, creating parent folders', async () => {
    writeFileSync(join(taskDir, 'table.csv'), 'a,b\n1,2\n');
    await step('upload_file', { files: [{ local_path: 'table.csv', path: '/home/user/Desktop/table.csv' }] });
    await step('upload_file_to_vm', { local_path: 'table.csv', remote_path: '/home/user/deep/er/table.csv' });
    expect(await text('/home/user/Desktop/table.csv')).toBe('a,b\n1,2\n');
    expect(await text('/home/user/deep/er/table.csv')).toBe('a,b\n1,2\n');
    await expect(step('upload_file_to_vm', { local_path: 'absent.csv', remote_path: '/tmp/x' })).rejects.toThrow(
      /Setup step 0 \(upload_file_to_vm\) failed: upload_file_to_vm: absent\.csv is not in the task's folder/,
    );
  });

  test('execute runs the command with placeholders; command writes stdout/stderr into the cache folder', async () => {
    await step('execute', { command: ['bash', '-c', 'echo "{CLIENT_PASSWORD} {SCREEN_WIDTH_HALF}" > /tmp/ran.txt'] });
    expect(await text('/tmp/ran.txt')).toBe(`password ${ctx.vars.SCREEN_WIDTH_HALF}\n`);
    await step('command', { command: 'echo out; echo err >&2; exit 4', shell: true, stdout: 'out.txt', stderr: 'logs/err.txt' });
    expect(readFileSync(join(cacheDir, 'out.txt'), 'utf8')).toBe('out\n');
    expect(readFileSync(join(cacheDir, 'logs', 'err.txt'), 'utf8')).toBe('err\n');
    // A failing command does not fail the step (OSWorld only logs it).
    await step('execute', { command: ['false'] });
  });

  test('execute with until repeats every 0.3 s until stdout holds the text', async () => {
    const counter = 'n=$(cat /tmp/count 2>/dev/null || echo 0); n=$((n+1)); echo $n > /tmp/count; echo "round $n"';
    const started = Date.now();
    await step('execute', { command: ['bash', '-c', counter], until: { stdout: 'round 3' } });
    expect(await text('/tmp/count')).toBe('3\n');
    expect(Date.now() - started).toBeGreaterThanOrEqual(600);
    await step('execute', { command: ['bash', '-c', 'exit 7'], until: { returncode: 7 } });
  });

  test('execute_with_verification passes when the check command succeeds', async () => {
    await step('execute_with_verification', {
      command: ['touch', '/tmp/verified'],
      verification: { command_success: 'test -f /tmp/verified' },
      max_wait_time: 5,
    });
    expect(await desktop.client.readFile('/tmp/verified')).not.toBeNull();
  });

  test("launch waits until the desktop is idle before the next step, so keys a task sends after its fixed sleep reach the app (a run's task env)", async () => {
    // OSWorld's VLC and Impress tasks launch the app, then sleep 5 s and press keys: on a loaded host the app was not up.
    const task = { dir: taskDir, file: join(taskDir, 'task.json') } as Task;
    const env = await createTaskEnv(task, desktop, { resultDir: join(root, 'launch-task'), cacheDir: join(root, 'downloads'), settleAfterSetup: 60, log: ctx.log });
    await runSetupSteps([
      { type: 'launch', parameters: { command: ['libreoffice', '--impress'] } },
      { type: 'execute', parameters: { command: 'wmctrl -lx > /tmp/windows-after-launch', shell: true } },
    ], env, { phase: 'config' });
    expect(await text('/tmp/windows-after-launch')).toMatch(/libreoffice/i);
    await sh('pkill -f soffice; true');
  });

  test('open shows a text file in gedit, as on Ubuntu 22.04; activate_window and close_window act on it through wmctrl', async () => {
    await desktop.client.upload('/home/user/Desktop/notes.txt', Buffer.from('hello\n'));
    await desktop.client.upload('/home/user/Desktop/other.txt', Buffer.from('other\n'));
    await step('open', { path: '/home/user/Desktop/notes.txt' });
    // Not in VS Code, which also registers text/plain and folders (docker/desktop/defaults/etc/xdg/mimeapps.list).
    expect(await sh('wmctrl -lx')).toMatch(/gedit.*notes\.txt/i);
    expect(await sh('xdg-mime query default inode/directory')).toMatch(/org\.gnome\.Nautilus\.desktop/);
    // A second window (gedit would open another file as a tab of the first).
    await step('launch', { command: ['gedit', '--new-window', '/home/user/Desktop/other.txt'] });
    await expect.poll(() => sh('xdotool getactivewindow getwindowname'), { timeout: 30_000 }).toMatch(/other\.txt/);
    await step('activate_window', { window_name: 'notes.txt', strict: false });
    await expect.poll(() => sh('xdotool getactivewindow getwindowname'), { timeout: 5000 }).toMatch(/notes\.txt/);
    await step('close_window', { window_name: 'notes.txt', strict: false, by_class: false });
    await expect.poll(() => sh('wmctrl -l'), { timeout: 45_000 }).not.toMatch(/notes\.txt/);
    // A window that does not exist is only logged, as in OSWorld.
    await step('activate_window', { window_name: 'no such window' });
  }, 150_000);

  test('update_browse_history writes a History database Chrome then shows', async () => {
    const history = [
      { url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', title: 'Rick Astley - Never Gonna Give You Up', visit_time_from_now_in_seconds: 3600 },
      { url: 'https://www.nytimes.com/', title: 'The New York Times', visit_time_from_now_in_seconds: 300 },
    ];
    const before = BigInt(Date.now()) * 1000n + 11_644_473_600_000_000n;
    await step('update_browse_history', { history });
    const bytes = await desktop.client.readFile('/home/user/.config/google-chrome/Default/History');
    expect(bytes).not.toBeNull();
    const local = join(root, 'History');
    writeFileSync(local, bytes!);
    const db = new DatabaseSync(local, { readOnly: true, readBigInts: true });
    const rows = db.prepare('SELECT u.url, u.title, u.last_visit_time, v.transition FROM urls u JOIN visits v ON v.url = u.id ORDER BY u.id').all() as {
      url: string; title: string; last_visit_time: bigint; transition: bigint;
    }[];
    db.close();
    expect(rows.map((r) => [r.url, r.title, r.transition])).toEqual(history.map((h) => [h.url, h.title, 805306368n]));
    // An hour (±5 s) before the step ran, in µs since 1601.
    expect(Number(before - rows[0].last_visit_time - 3_600_000_000n)).toBeLessThan(5_000_000);
    expect(Number(before - rows[0].last_visit_time - 3_600_000_000n)).toBeGreaterThan(-5_000_000);
    expect(await sh('stat -c %U /home/user/.config/google-chrome/Default/History')).toBe('user\n');
  });

  test('chrome_open_tabs opens pages served inside the desktop; chrome_close_tabs closes one', async () => {
    await desktop.client.upload('/tmp/site/a.html', Buffer.from('<title>Page A</title><p>a</p>'));
    await desktop.client.upload('/tmp/site/b.html', Buffer.from('<title>Page B</title><p>b</p>'));
    await run([
      { type: 'launch', parameters: { command: ['python3', '-m', 'http.server', '8765', '--directory', '/tmp/site'] } },
      { type: 'launch', parameters: { command: ['google-chrome', '--remote-debugging-port=1337'] } },
      { type: 'launch', parameters: { command: 'socat tcp-listen:9222,fork tcp:localhost:1337' } },
      { type: 'chrome_open_tabs', parameters: { urls_to_open: ['http://localhost:8765/a.html', 'http://localhost:8765/b.html'] } },
    ]);
    const urls = async () => {
      const browser = await connectOverDevTools(ctx.cdp!);
      try {
        return browser.contexts()[0].pages().map((page) => page.url());
      } finally {
        await browser.close();
      }
    };
    // The default tab is gone; both pages are open (and Chrome survived our disconnecting).
    expect((await urls()).sort()).toEqual(['http://localhost:8765/a.html', 'http://localhost:8765/b.html']);
    // The History written before Chrome started is what Chrome shows.
    const browser = await connectOverDevTools(ctx.cdp!);
    try {
      const page = await browser.contexts()[0].newPage();
      await page.goto('chrome://history');
      // Playwright's text locators pierce the history page's shadow DOM.
      await page.getByText('The New York Times').first().waitFor({ timeout: 15_000 });
      expect(await page.getByText('Rick Astley - Never Gonna Give You Up').count()).toBeGreaterThan(0);
      await page.close();
    } finally {
      await browser.close();
    }
    await step('chrome_close_tabs', { urls_to_close: ['localhost:8765/a.html'] });
    expect(await urls()).toEqual(['http://localhost:8765/b.html']);
    // Spider2-V's google_chrome_browser: Chrome is already up, so the second launch and socat change nothing; the
    // URL still opens in a new tab.
    await step('google_chrome_browser', { debugging_port: 1337, listening_port: 9222, urls: ['http://localhost:8765/a.html'] });
    expect(await urls()).toContain('http://localhost:8765/a.html');
  }, 90_000);

  test('change_wallpaper sets the picture the desktop reports', async () => {
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
    await desktop.client.upload('/home/user/Pictures/wall.png', png);
    await step('change_wallpaper', { path: '/home/user/Pictures/wall.png' });
    expect(await desktop.client.wallpaper()).toEqual(png);
  });

  test('GUI-OS upload_script_and_execute puts the script in <remote_path>/<name> and runs it as user with TASK_SETUP_LOG', async () => {
    writeFileSync(join(taskDir, 'init.sh'), '#!/bin/bash\necho "log=$TASK_SETUP_LOG user=$(id -un) cwd=$PWD" > /home/user/Desktop/setup-ran.txt\n');
    logs.length = 0;
    await step('upload_script_and_execute', { local_path: 'init.sh', remote_path: '/home/user/init.sh' });
    expect(await text('/home/user/Desktop/setup-ran.txt')).toBe('log=task-setup.log user=user cwd=/home/user\n');
    expect(await sh('test -x /home/user/init.sh/init.sh && echo executable')).toBe('executable\n');
    expect(logs.join('\n')).toMatch(/returncode 0/);
  });

  test('GUI-OS upload_script_and_execute fails the setup when init.sh exits non-zero, naming the script and its exit code', async () => {
    writeFileSync(join(taskDir, 'init.sh'), '#!/bin/bash\necho "failing on purpose" >&2\nexit 3\n');
    const error = await step('upload_script_and_execute', { local_path: 'init.sh', remote_path: '/home/user/init.sh' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SetupStepError);
    expect((error as Error).message).toMatch(/\/home\/user\/init\.sh\/init\.sh \(the task's init\.sh\) exited with code 3; its stderr ends: failing on purpose/);
  });

  test('Spider2-V copyfile_from_host_to_guest (json_encode) and script_and_execute find files from the repo-root paths', async () => {
    const examples = join(root, 's2v', 'examples', 'dbt', 'task-1');
    mkdirSync(examples, { recursive: true });
    mkdirSync(join(root, 's2v', 'settings', 'snowflake'), { recursive: true });
    writeFileSync(join(root, 's2v', 'settings', 'snowflake', 'settings.json'), JSON.stringify({ user: 'ann', port: 443, ok: true }));
    writeFileSync(join(examples, 'init.sh'), 'echo "ran with $1" > /home/user/s2v-ran.txt\n');
    const spider = { ...ctx, taskDir: examples };
    await runSetupSteps(
      [
        {
          type: 'copyfile_from_host_to_guest',
          parameters: { src: 'evaluation_examples/settings/snowflake/settings.json', dest: '/home/user/Desktop/creds.json', json_encode: true },
        },
        { type: 'script_and_execute', parameters: { src: 'evaluation_examples/examples/dbt/task-1/init.sh', dest: '/home/user/run.sh', options: ['opt'] } },
      ],
      spider,
      { phase: 'config' },
    );
    const b64 = (value: string) => Buffer.from(value).toString('base64');
    expect(JSON.parse((await text('/home/user/Desktop/creds.json'))!)).toEqual({ user: b64('ann'), port: b64('443'), ok: b64('True') });
    expect(await text('/home/user/s2v-ran.txt')).toBe('ran with opt\n');
    expect(await desktop.client.readFile('/home/user/run.sh')).toBeNull();
    const missing = await runSetupSteps(
      [{ type: 'copyfile_from_host_to_guest', parameters: { src: 'evaluation_examples/examples/dbt/task-1/jaffle_shop.zip', dest: '/home/user/x.zip' } }],
      spider,
      { phase: 'config' },
    ).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(SetupStepError);
    expect((missing as Error).message).toMatch(/jaffle_shop\.zip is not on this machine .*Only the task's JSON is here/);
  });

  test('Google Drive, Google login and service steps skip the task', async () => {
    for (const type of ['googledrive', 'login', 'snowflake_login', 'airbyte_webui_init']) {
      const error = await step(type, {}).catch((e: unknown) => e);
      expect(error, type).toBeInstanceOf(SkipTask);
    }
    await expect(step('login', { platform: 'googledrive' })).rejects.toThrow(/needs a Google account/);
  });
});
