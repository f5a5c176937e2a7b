// Hostile task files through runTask on a real desktop: setup steps and getters whose host paths lead outside the
// task's folder or the cache fail with a clear error, nothing reaches the desktop, nothing is written on the host.
// One desktop serves every task (the remote provider), so the test costs one container start.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { scriptedAgent } from '../../src/agent/agents/scripted.ts';
import { readTaskFile } from '../../src/adapters/load.ts';
import { runTask } from '../../src/worker/run-task.ts';
import { type TestDesktop, takeDesktop } from '../helpers/desktops.ts';

const SECRET = 'host secret: must never reach the desktop';
let desktop: TestDesktop;
let top: string;

beforeAll(async () => {
  desktop = await takeDesktop();
});
afterAll(async () => {
  await desktop?.stop();
});

/** A fresh `top` folder holding a secret file outside every task folder. */
function freshTop(): string {
  top = mkdtempSync(join(tmpdir(), 'deskbench-hostile-'));
  writeFileSync(join(top, 'secret.txt'), SECRET);
  return top;
}

/** A task file in `<top>/tasks/examples/<domain>/<id>/<id>.json`. */
function writeTask(domain: string, id: string, data: Record<string, unknown>): string {
  const dir = join(top, 'tasks', 'examples', domain, id);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'input.txt'), 'a file of the task'); // marks a GUI-OS task folder
  const file = join(dir, `${id}.json`);
  writeFileSync(file, JSON.stringify({ id, instruction: 'hostile', ...data }));
  return file;
}

async function run(file: string) {
  const parsed = readTaskFile(file, { explicit: true });
  if (parsed.kind !== 'task') throw new Error(`${file} did not load: ${JSON.stringify(parsed)}`);
  const resultsDir = join(top, 'results');
  return runTask(parsed.task, {
    agent: scriptedAgent({ solution: [] }),
    maxSteps: 1,
    observationType: 'screenshot',
    pauseAfterAction: 0, settleAfterSetup: 0, settleBeforeEvaluation: 0,
    passThreshold: 1,
    resultsDir,
    cacheDir: join(top, 'download-cache'),
    desktop: { provider: 'remote', url: desktop.url, token: desktop.token },
    record: false,
    resume: false,
  });
}

describe('setup steps cannot send host files outside the task folder to the desktop', () => {
  test.each([
    ['OSWorld upload_file with ../', 'os', { config: [{ type: 'upload_file', parameters: { files: [{ local_path: '../../../../secret.txt', path: '/home/user/leak-upload' }] } }], evaluator: { func: 'infeasible' } }, '/home/user/leak-upload', /Setup step 0 \(upload_file\) failed: \/\S+\/hostile-\w+\.json: parameters\.files\[0\]\.local_path "\.\.\/\.\.\/\.\.\/\.\.\/secret\.txt" leads outside its folder; it must stay inside \/.*\/tasks\/examples\/os\/\w+/],
    ['OSWorld download of file:///etc/passwd', 'os', { config: [{ type: 'download', parameters: { files: [{ url: 'file:///etc/passwd', path: '/home/user/leak-download' }] } }], evaluator: { func: 'infeasible' } }, '/home/user/leak-download', /Setup step 0 \(download\) failed: \/\S+\/hostile-\w+\.json: the file URL "file:\/\/\/etc\/passwd", path "\/etc\/passwd" is an absolute path outside its folder/],
    ['Spider2-V copyfile_from_host_to_guest with an absolute src', 'dbt', { tags: ['cli'], config: [{ type: 'copyfile_from_host_to_guest', parameters: { src: '/etc/passwd', dest: '/home/user/leak-copy' } }], evaluator: { func: 'infeasible' } }, '/home/user/leak-copy', /Setup step 0 \(copyfile_from_host_to_guest\) failed: \/\S+\/hostile-\w+\.json: parameters\.src "\/etc\/passwd" is an absolute path outside its folder/],
    ['GUI-OS upload_file_to_vm with ../', 'jupyter', { config: [{ func: 'upload_file_to_vm', arguments: { local_path: '../../../../secret.txt', remote_path: '/home/user/leak-vm' } }], evaluation: null }, '/home/user/leak-vm', /Setup step 0 \(upload_file_to_vm\) failed: \/\S+\/hostile-\w+\.json: arguments\.local_path "\.\.\/\.\.\/\.\.\/\.\.\/secret\.txt" leads outside its folder/],
  ])('%s: SETUP_ERROR naming the task file, the field and the folder; nothing uploaded', async (_name, domain, data, remote, message) => {
    freshTop();
    const outcome = await run(writeTask(domain, `hostile-${domain}`, data));
    expect(outcome).toMatchObject({ status: 'error', state: 'SETUP_ERROR', score: 0 });
    expect(outcome.error).toMatch(message);
    expect(await desktop.client.readFile(remote)).toBeNull();
  });
});

describe('getters cannot write desktop bytes outside the cache', () => {
  // From <top>/results/pyautogui/screenshot/scripted/os/hostile-dest/cache, seven `..` reach <top>.
  test.each([
    ['a relative dest with ../', () => join(top, 'escaped-by-dest'), () => '../../../../../../../escaped-by-dest'],
    ['an absolute dest', () => join(top, 'absolute-dest'), () => join(top, 'absolute-dest')],
  ])('vm_file with %s: an eval error naming the task file and config.dest, score 0, no file outside the cache', async (_name, target, dest) => {
    freshTop();
    const file = writeTask('os', 'hostile-dest', {
      evaluator: { func: 'exact_match', result: { type: 'vm_file', path: '/etc/hostname', dest: dest() }, expected: { type: 'rule', rules: { expected: 'x' } } },
    });
    const outcome = await run(file);
    expect(outcome).toMatchObject({ status: 'scored', score: 0, passed: false });
    expect(outcome.evalError).toMatch(
      /getter vm_file \(result of exact_match\) failed: \/\S+\/hostile-dest\.json: config\.dest "[^"]*(escaped-by-dest|absolute-dest)" (leads outside its folder|is an absolute path outside its folder); it must stay inside \/.*\/hostile-dest\/cache/,
    );
    expect(existsSync(target())).toBe(false);
    expect(readdirSync(top).sort()).toEqual(['results', 'secret.txt', 'tasks']);
  });
});
