// Runs the real vitest CLI on a fixture project in a child process, as a user would, and returns its JSON output.
// The child ends with the test that started it (helpers/child-run.ts).
import { resolve } from 'node:path';
import { runChild } from '../helpers/child-run.ts';

const VITEST = resolve(import.meta.dirname, '../../node_modules/vitest/vitest.mjs');

export interface VitestRun {
  code: number;
  stdout: string;
  stderr: string;
}

export async function vitestCli(root: string, args: string[], env: Record<string, string> = {}): Promise<VitestRun> {
  return runChild(process.execPath, [VITEST, ...args], {
    cwd: root,
    env: { VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true', NO_COLOR: '1', CI: 'true', ...env },
  });
}

/** `vitest list --json` entries. */
export async function listTests(root: string, extra: string[] = []): Promise<{ name: string; file: string }[]> {
  // `--json` last: followed by a path it would write the listing into that file.
  const result = await vitestCli(root, ['list', ...extra, '--json']);
  const start = result.stdout.indexOf('[');
  if (start < 0) throw new Error(`vitest list printed no JSON (exit ${result.code}):\n${result.stdout}\n${result.stderr}`);
  return JSON.parse(result.stdout.slice(start));
}

/** The summary.json of every task under a results folder (`results` of each, as the runner wrote it). */
export async function readSummaries(resultsDir: string): Promise<{ results: Record<string, any> }[]> {
  const { readFile, readdir } = await import('node:fs/promises');
  const { join } = await import('node:path');
  const files = (await readdir(resultsDir, { recursive: true })).filter((file) => file.endsWith('summary.json'));
  return Promise.all(files.map(async (file) => JSON.parse(await readFile(join(resultsDir, file), 'utf8'))));
}
