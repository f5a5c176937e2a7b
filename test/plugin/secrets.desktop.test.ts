// API keys never reach the disk: not in the modules vitest caches (agentOptions travel over vitest's IPC), and not in
// what deskbench stores or prints when the model's API quotes them back in an error. A real run: the vitest CLI on
// the runner fixture project, a real desktop, the built-in openai agent against a local fake API that answers 401
// with the key in its message (as OpenAI does: "Incorrect API key provided: sk-…").
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type FakeApiServer, startFakeApiServer } from '../agent/fake-api-server.ts';
import { childRunId } from '../helpers/child-run.ts';
import { vitestCli } from './run-vitest.ts';

const PROJECT = resolve(import.meta.dirname, '../../fixtures/runner-project');

/** Every file under `dir` with its text (binary files too: a key would show as its bytes). */
async function filesUnder(dir: string): Promise<{ path: string; text: string }[]> {
  const names = (await readdir(dir, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile());
  return Promise.all(names.map(async (entry) => ({ path: join(entry.parentPath, entry.name), text: (await readFile(join(entry.parentPath, entry.name))).toString('latin1') })));
}

describe('secrets stay off disk', () => {
  let server: FakeApiServer;
  beforeAll(async () => {
    server = await startFakeApiServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  test('the API key is in no cached module, result file, report or printed message', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'deskbench-secrets-'));
    const apiKey = `sk-test-${randomBytes(12).toString('hex')}`;
    // A secret with no recognisable shape: only its name (…token) says it is one.
    const sessionToken = `plain${randomBytes(8).toString('hex')}`;
    const message = `Incorrect API key provided: ${apiKey} (session ${sessionToken}, sent as Authorization: Bearer ${apiKey})`;
    server.reply({ status: 401, json: { error: { message, type: 'invalid_request_error', code: 'invalid_api_key' } } });
    const cache = join(dir, 'vitest-cache');
    const run = await vitestCli(PROJECT, ['run', '01', '--fsModuleCache', `--fsModuleCachePath=${cache}`], {
      DESKBENCH_RUN_ID: childRunId('secrets'),
      DESKBENCH_RESULTS: join(dir, 'results'),
      DESKBENCH_FIXTURE_AGENT: 'openai',
      DESKBENCH_AGENT_OPTIONS: JSON.stringify({ model: 'fake-model', baseURL: `${server.url}/v1`, apiKey, extraBody: { session_token: sessionToken } }),
    });
    // The request carried the key: the agent got it through vitest's inject, not from a generated module.
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0].headers.authorization).toBe(`Bearer ${apiKey}`);
    expect(server.requests[0].body.session_token).toBe(sessionToken);

    const cached = await filesUnder(cache);
    // The task's generated module was cached (so this check looks at something), without the secrets.
    expect(cached.some((file) => file.text.includes('7d1f0a52-3c5e-4e8b-9a61-000000000001'))).toBe(true);
    const results = await filesUnder(join(dir, 'results'));
    expect(results.map((file) => basename(file.path))).toEqual(expect.arrayContaining(['summary.json', 'traj.jsonl', 'report.json', 'index.html']));
    for (const file of [...cached, ...results, { path: 'vitest stdout', text: run.stdout }, { path: 'vitest stderr', text: run.stderr }]) {
      expect.soft(file.text.includes(apiKey), `${file.path} holds the API key`).toBe(false);
      expect.soft(file.text.includes(sessionToken), `${file.path} holds the session token`).toBe(false);
    }

    // What remains says what happened, masked.
    const summary = JSON.parse(results.find((file) => file.path.endsWith('summary.json'))!.text);
    expect(summary.results.state).toBe('AGENT_ERROR');
    expect(summary.results.output).toContain('Incorrect API key provided: ***');
    expect(summary.results.output).toContain('Bearer ***');
    const report = JSON.parse(results.find((file) => file.path.endsWith('report.json'))!.text);
    expect(report.tasks[0].error).toContain('Incorrect API key provided: ***');
    expect(run.stdout + run.stderr).toContain('Incorrect API key provided: ***');
  }, 180_000);
});
