// Watch mode (`vitest` without `run`): editing the agent module, a module it imports, or an extension reruns the
// task tests. The task is a Windows one, which deskbench skips after loading the agent, so no desktop is needed.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, expect, test } from 'vitest';

const VITEST = resolve(import.meta.dirname, '../../node_modules/vitest/vitest.mjs');
const PLUGIN = resolve(import.meta.dirname, '../../src/node/plugin/index.ts');

const TASK = {
  id: 'b7e2c0de-0000-4000-8000-000000000001',
  snapshot: 'os',
  instruction: 'Open the Start menu.',
  config: [],
  related_apps: ['os'],
  evaluator: { func: 'infeasible' },
};

let stop: (() => void) | undefined;
afterEach(() => stop?.());

test('editing the agent module, a module it imports, or an extension reruns the tasks', async () => {
  const root = mkdtempSync(join(tmpdir(), 'deskbench-watch-'));
  mkdirSync(join(root, 'tasks/examples_windows/os'), { recursive: true });
  writeFileSync(join(root, `tasks/examples_windows/os/${TASK.id}.json`), JSON.stringify(TASK));
  writeFileSync(join(root, 'helper.ts'), 'export const answer = "DONE";\n');
  writeFileSync(join(root, 'my-agent.ts'), `import { answer } from './helper.ts';\nexport default { name: 'watched', predict: () => ({ actions: [answer] }) };\n`);
  writeFileSync(join(root, 'my-extension.ts'), 'export {};\n');
  writeFileSync(
    join(root, 'vitest.config.ts'),
    `import { deskbench } from ${JSON.stringify(PLUGIN)};
export default { plugins: [deskbench({ tasks: 'tasks', agent: './my-agent.ts', extensions: ['./my-extension.ts'], desktop: { provider: 'remote', url: 'http://127.0.0.1:9' } })] };
`,
  );
  // A plain environment: not CI (vitest does not watch files on CI), none of this test run's vitest and vite variables.
  // Node's compile cache stays (vitest.config.ts): it only spares the child CPU.
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1', VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true', NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? '' };
  const child = spawn(process.execPath, [VITEST, '--watch'], { cwd: root, env });
  stop = () => child.kill('SIGTERM');
  let output = '';
  /** Runs finished so far: after each, vitest says it waits for file changes. */
  const runs = () => output.match(/Waiting for file changes/g)?.length ?? 0;
  let onOutput = () => {};
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    onOutput();
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  // Waits on the output itself, not on a poll: the watcher is listening once vitest says it waits for changes.
  const until = async (count: number) => {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`expected ${count} runs, saw ${runs()}:\n${output}`)), 60_000);
      onOutput = () => {
        if (runs() < count) return;
        clearTimeout(timer);
        resolve();
      };
      onOutput();
    });
    expect(output.match(/^\s*Tests\s+1 skipped \(1\)/gm)).toHaveLength(count);
  };

  await until(1); // the task was skipped as a Windows task, after the agent module loaded
  writeFileSync(join(root, 'my-agent.ts'), `import { answer } from './helper.ts';\nexport default { name: 'watched', predict: () => ({ actions: [answer, 'DONE'] }) };\n`);
  await until(2);
  writeFileSync(join(root, 'helper.ts'), 'export const answer = "WAIT";\n');
  await until(3);
  writeFileSync(join(root, 'my-extension.ts'), 'export const changed = true;\n');
  await until(4);
  expect(output).toMatch(/RERUN\s+.*my-agent\.ts/);
  expect(output).toMatch(/RERUN\s+.*helper\.ts/);
  expect(output).toMatch(/RERUN\s+.*my-extension\.ts/);
}, 180_000);
