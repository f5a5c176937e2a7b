// The control server's endpoints against a real desktop container (one container for this file).
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DesktopRequestError } from '../../src/desktop/client.ts';
import { type TestDesktop, takeDesktop } from '../helpers/desktops.ts';

let desktop: TestDesktop;
beforeAll(async () => {
  desktop = await takeDesktop();
});
afterAll(async () => {
  await desktop?.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('authentication', () => {
  test('a request without the token gets 401 and runs nothing', async () => {
    const marker = `/tmp/unauth-${Date.now()}`;
    const response = await fetch(`${desktop.url}/execute`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ command: ['touch', marker] }),
    });
    expect(response.status).toBe(401);
    const wrong = await fetch(`${desktop.url}/platform`, { headers: { authorization: 'Bearer nope' } });
    expect(wrong.status).toBe(401);
    const check = await desktop.client.execute(['test', '-e', marker]);
    expect(check.returncode).toBe(1);
  });
});

describe('observation', () => {
  test('screenshot is a valid 1920×1080 PNG with the cursor drawn', async () => {
    // The same spot of the wallpaper with the cursor on it and without: the cursor's pixels differ.
    const shot = async (x: number, y: number) => {
      await desktop.client.execute(['xdotool', 'mousemove', String(x), String(y)]);
      const png = await desktop.client.screenshot();
      expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      return sharp(png).raw().toBuffer({ resolveWithObject: true });
    };
    const withCursor = await shot(1500, 700);
    const without = await shot(1700, 900);
    expect([withCursor.info.width, withCursor.info.height]).toEqual([1920, 1080]);
    const differs = (x: number, y: number) => {
      const i = (y * withCursor.info.width + x) * withCursor.info.channels;
      return [0, 1, 2].some((c) => Math.abs(withCursor.data[i + c] - without.data[i + c]) > 40);
    };
    let cursorPixels = 0;
    for (let y = 700; y < 720; y++) for (let x = 1500; x < 1515; x++) if (differs(x, y)) cursorPixels++;
    expect(cursorPixels).toBeGreaterThan(10);
    expect(differs(1400, 600)).toBe(false);
  });

  test('accessibility: time_limit_ms bounds one walk (a walk cut short says so); a bad value is a 400', async () => {
    const walk = async (query: string) => {
      const response = await desktop.client.request('GET', `/accessibility${query}`);
      const body = (await response.json()) as { AT: string };
      return { xml: body.AT, truncated: response.headers.get('x-deskbench-a11y-truncated') };
    };
    const cut = await walk('?time_limit_ms=1');
    expect(cut.truncated).toBe('true');
    const full = await walk('?time_limit_ms=120000');
    expect(full.truncated).toBe('false');
    expect(full.xml).toContain('<application name="gnome-shell"');
    for (const bad of ['0', 'abc', '300001', '1.5']) {
      const error = await desktop.client.request('GET', `/accessibility?time_limit_ms=${bad}`).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DesktopRequestError);
      expect((error as DesktopRequestError).status).toBe(400);
      expect((error as DesktopRequestError).message).toContain('time_limit_ms');
    }
  });

  test('screen_size, cursor_position and platform', async () => {
    expect(await desktop.client.screenSize()).toEqual({ width: 1920, height: 1080 });
    await desktop.client.execute(['xdotool', 'mousemove', '123', '456']);
    expect(await desktop.client.cursorPosition()).toEqual([123, 456]);
    expect(await desktop.client.platform()).toBe('Linux');
  });

  test('desktop_path and list_directory', async () => {
    expect(await desktop.client.desktopPath()).toBe('/home/user/Desktop');
    await desktop.client.execute('mkdir -p /tmp/tree/sub && touch /tmp/tree/a.txt /tmp/tree/sub/b.txt', { shell: true });
    const tree = await desktop.client.listDirectory('/tmp/tree');
    expect(tree.type).toBe('directory');
    expect(tree.name).toBe('tree');
    const children = [...(tree.children ?? [])].sort((a, b) => a.name.localeCompare(b.name));
    expect(children).toEqual([
      { type: 'file', name: 'a.txt' },
      { type: 'directory', name: 'sub', children: [{ type: 'file', name: 'b.txt' }] },
    ]);
    await expect(desktop.client.listDirectory('/tmp/tree/a.txt')).rejects.toMatchObject({ status: 400 });
  });

  test('wallpaper is the default picture until change_wallpaper sets one, then returns its bytes', async () => {
    // GNOME's desktop starts with a wallpaper, as OSWorld's VM does (a PNG made at image build).
    const initial = await desktop.client.wallpaper();
    expect(initial?.subarray(1, 4).toString()).toBe('PNG');
    const image = randomBytes(2048);
    await desktop.client.upload('/home/user/Pictures/wall.png', image);
    await desktop.client.changeWallpaper('~/Pictures/wall.png');
    expect(await desktop.client.wallpaper()).toEqual(image);
  });
});

describe('files', () => {
  test('upload then download is byte-identical, parents are created, missing files are 404', async () => {
    const data = randomBytes(3 * 1024 * 1024 + 17);
    await desktop.client.upload('~/Documents/new/dir/blob.bin', data);
    expect(await desktop.client.readFile('/home/user/Documents/new/dir/blob.bin')).toEqual(data);
    expect(await desktop.client.readFile('$HOME/Documents/new/dir/blob.bin')).toEqual(data);
    const owner = await desktop.client.execute(['stat', '-c', '%U', '/home/user/Documents/new/dir/blob.bin']);
    expect(owner.output.trim()).toBe('user');
    expect(await desktop.client.readFile('/home/user/nope.bin')).toBeNull();
  });

  test('download_file fetches a URL from inside the desktop', async () => {
    await desktop.client.execute('mkdir -p /tmp/www && printf served-content > /tmp/www/page.txt', { shell: true });
    await desktop.client.launch(['python3', '-m', 'http.server', '8765', '--directory', '/tmp/www']);
    let ok = false;
    for (let i = 0; i < 50 && !ok; i++) {
      ok = (await desktop.client.execute(['curl', '-sf', 'http://127.0.0.1:8765/page.txt'])).returncode === 0;
      if (!ok) await sleep(100);
    }
    await desktop.client.downloadFile('http://127.0.0.1:8765/page.txt', '~/Downloads/got.txt');
    expect((await desktop.client.readFile('~/Downloads/got.txt'))?.toString()).toBe('served-content');
    await expect(desktop.client.downloadFile('http://127.0.0.1:8765/missing', '~/Downloads/x')).rejects.toMatchObject({
      status: 500,
    });
  });
});

describe('commands', () => {
  test('execute returns code, stdout and stderr, as user `user` with the session env', async () => {
    const result = await desktop.client.execute(['bash', '-c', 'echo out; echo err >&2; id -un; echo $DISPLAY; exit 3']);
    expect(result).toEqual({ status: 'success', output: 'out\nuser\n:0\n', error: 'err\n', returncode: 3 });
    const shlex = await desktop.client.execute(`python -c "import sys; print(sys.argv[1:])" 'a b' "c\\"d" ~/x`);
    expect(shlex.output).toBe(`['a b', 'c"d', '/home/user/x']\n`);
    const shell = await desktop.client.execute('echo $((6*7)) | tr 4 X', { shell: true, setup: true });
    expect(shell.output).toBe('X2\n');
    const noToken = await desktop.client.execute(['sh', '-c', 'echo "[$DESKBENCH_TOKEN]"']);
    expect(noToken.output).toBe('[]\n');
    const sudo = await desktop.client.execute('echo password | sudo -S -p "" id -u', { shell: true });
    expect(sudo.output).toBe('0\n');
  });

  test('execute of a missing program is a 500 with Python-like message', async () => {
    const error = await desktop.client.execute(['no-such-program']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DesktopRequestError);
    expect((error as DesktopRequestError).status).toBe(500);
    expect(JSON.parse((error as DesktopRequestError).body)).toEqual({
      status: 'error',
      message: "[Errno 2] No such file or directory: 'no-such-program'",
    });
  });

  test('a command that leaves a background child still returns', async () => {
    const started = Date.now();
    const result = await desktop.client.execute('sleep 30 & echo started', { shell: true });
    expect(result.output).toBe('started\n');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  test('execute_with_verification passes on command_success and fails on a missing window', async () => {
    const passed = await desktop.client.executeWithVerification({
      command: 'touch /tmp/verified',
      shell: true,
      verification: { command_success: 'test -e /tmp/verified' },
      max_wait_time: 5,
      check_interval: 0.2,
    });
    expect(passed).toMatchObject({ status: 'success', verification: 'passed', returncode: 0 });
    const failed = await desktop.client
      .executeWithVerification({
        command: ['true'],
        verification: { window_exists: 'no such window title' },
        max_wait_time: 1,
        check_interval: 0.2,
      })
      .catch((e: DesktopRequestError) => JSON.parse(e.body));
    expect(failed).toMatchObject({ status: 'verification_failed', verification: 'failed' });
  });

  test('run_python and run_bash_script', async () => {
    const python = await desktop.client.runPython('import sys\nprint(6*7)\nprint("oops", file=sys.stderr)');
    expect(python).toMatchObject({ status: 'success', output: '42\n', error: 'oops\n', return_code: 0 });
    const failing = await desktop.client.runPython('raise SystemExit(4)');
    expect(failing).toMatchObject({ status: 'error', return_code: 4, error: 'Process exited with code 4' });
    const bash = await desktop.client.runBashScript('echo one; echo two >&2; pwd; exit 2', { working_dir: '~/Music' });
    expect(bash).toEqual({ status: 'error', output: 'one\ntwo\n/home/user/Music\n', error: '', returncode: 2 });
    const timeout = await desktop.client
      .runBashScript('sleep 5', { timeout: 1 })
      .catch((e: DesktopRequestError) => JSON.parse(e.body));
    expect(timeout).toEqual({ status: 'error', output: 'Script execution timed out after 1 seconds', error: '', returncode: -1 });
  });

  test('launch starts a program and reports a missing one as 500', async () => {
    await desktop.client.launch('touch /tmp/launched', true);
    await desktop.client.launch(['sh', '-c', 'sleep 0.2; touch /tmp/launched-list']);
    await sleep(800);
    expect((await desktop.client.execute(['ls', '/tmp/launched', '/tmp/launched-list'])).returncode).toBe(0);
    await expect(desktop.client.launch(['no-such-app'])).rejects.toMatchObject({ status: 500 });
  });
});

describe('windows and recording', () => {
  test('window_size, activate_window and close_window act on real windows', async () => {
    await desktop.client.launch(['gedit', '--new-window', '/tmp/window-test.txt']);
    let size = null;
    for (let i = 0; i < 100 && !size; i++) {
      size = await desktop.client.windowSize('gedit');
      if (!size) await sleep(200);
    }
    expect(size?.width).toBeGreaterThan(100);
    expect(size?.height).toBeGreaterThan(100);
    expect(await desktop.client.windowSize('no-such-class')).toBeNull();
    for (let i = 0; i < 50 && !(await desktop.client.execute(['wmctrl', '-l'])).output.includes('window-test.txt'); i++) {
      await sleep(100);
    }
    await desktop.client.activateWindow({ window_name: 'window-test.txt' });
    const active = await desktop.client.execute('xdotool getactivewindow getwindowname', { shell: true });
    expect(active.output).toContain('window-test.txt');
    await desktop.client.closeWindow({ window_name: 'gedit', by_class: true });
    let gone = false;
    for (let i = 0; i < 50 && !gone; i++) {
      gone = !(await desktop.client.execute(['wmctrl', '-l'])).output.includes('window-test.txt');
      if (!gone) await sleep(100);
    }
    expect(gone).toBe(true);
  });

  test('start_recording then end_recording returns an mp4; a second start while recording is 400', async () => {
    await desktop.client.startRecording();
    await expect(desktop.client.startRecording()).rejects.toMatchObject({ status: 400 });
    await desktop.client.execute(['xdotool', 'mousemove', '100', '100']);
    await sleep(1000);
    const mp4 = await desktop.client.endRecording();
    expect(mp4.length).toBeGreaterThan(1000);
    expect(mp4.subarray(4, 8).toString('latin1')).toBe('ftyp');
    await expect(desktop.client.endRecording()).rejects.toMatchObject({ status: 400 });
  });
});
