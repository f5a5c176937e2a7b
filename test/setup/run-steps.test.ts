// The step runner, placeholder substitution, the registry as users see it, and the Chrome History builder — the parts
// that need no desktop. Steps defined here are registered the way users register theirs (defineSetupStep).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { DesktopClient } from '../../src/desktop/client.ts';
import { registerBuiltinSteps } from '../../src/setup/builtins.ts';
import { buildChromeHistory, chromeTime, VISIT_TRANSITION } from '../../src/setup/chrome-history.ts';
import { SetupStepError } from '../../src/setup/errors.ts';
import { setupVars, substituteVars } from '../../src/setup/parameters.ts';
import { defineSetupStep, setupSteps, SkipTask, type SetupContext } from '../../src/setup/registry.ts';
import { runSetupSteps } from '../../src/setup/run-steps.ts';
import { closeNames } from '../../src/shared/close-names.ts';
import { spider2vFileCandidates } from '../../src/adapters/spider2v/setup-steps.ts';
import { registerAdapters } from '../../src/adapters/index.ts';

// The formats' own setup steps, getters and metrics (loading a task file registers them; these tests load none).
registerAdapters();

function context(logs: string[] = []): SetupContext {
  return {
    // Never contacted: the steps in these tests do not use the desktop.
    desktop: new DesktopClient({ url: 'http://127.0.0.1:9' }),
    taskDir: tmpdir(),
    cacheDir: tmpdir(),
    fetchUrl: async (url) => url,
    vars: setupVars({ password: 'pa ss', screen: { width: 1920, height: 1081 } }),
    log: (message) => logs.push(message),
  };
}

describe('runSetupSteps', () => {
  it('runs steps in order with placeholders substituted in every string', async () => {
    const seen: unknown[] = [];
    defineSetupStep('test_record', async (_ctx, parameters) => {
      seen.push(parameters);
    });
    await runSetupSteps(
      [
        { type: 'test_record', parameters: { command: ['echo', '{CLIENT_PASSWORD}', '{SCREEN_WIDTH}x{SCREEN_HEIGHT}'] } },
        { type: 'test_record', parameters: { nested: { at: '{SCREEN_WIDTH_HALF},{SCREEN_HEIGHT_HALF}', n: 3, other: '{UNKNOWN}' } } },
      ],
      context(),
      { phase: 'config' },
    );
    expect(seen).toEqual([
      { command: ['echo', 'pa ss', '1920x1081'] },
      { nested: { at: '960,540', n: 3, other: '{UNKNOWN}' } },
    ]);
  });

  it('wraps a failing step as "Setup step i (type) failed: …" with the cause, and stops there', async () => {
    const ran: string[] = [];
    const boom = new Error('disk full');
    defineSetupStep('test_fail', async () => {
      throw boom;
    });
    defineSetupStep('test_mark', async (_ctx, parameters) => {
      ran.push(String(parameters.name));
    });
    const error = await runSetupSteps(
      [
        { type: 'test_mark', parameters: { name: 'first' } },
        { type: 'test_fail', parameters: {} },
        { type: 'test_mark', parameters: { name: 'never' } },
      ],
      context(),
      { phase: 'config' },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SetupStepError);
    expect((error as SetupStepError).message).toBe('Setup step 1 (test_fail) failed: disk full');
    expect((error as SetupStepError).cause).toBe(boom);
    expect((error as SetupStepError).index).toBe(1);
    expect(ran).toEqual(['first']);
  });

  it('names postconfig steps as such', async () => {
    defineSetupStep('test_fail_post', async () => {
      throw new Error('nope');
    });
    await expect(runSetupSteps([{ type: 'test_fail_post', parameters: {} }], context(), { phase: 'postconfig' })).rejects.toThrow(
      'Postconfig step 0 (test_fail_post) failed: nope',
    );
  });

  it('rejects an unknown type before running anything, listing close names', async () => {
    const ran: string[] = [];
    defineSetupStep('test_mark2', async () => {
      ran.push('ran');
    });
    const error = await runSetupSteps(
      [
        { type: 'test_mark2', parameters: {} },
        { type: 'chrome_open_tab', parameters: {} },
      ],
      context(),
      { phase: 'config' },
    ).catch((e: Error) => e);
    expect(error).toBeInstanceOf(SetupStepError);
    expect((error as Error).message).toMatch(/^Setup step 1 \(chrome_open_tab\) has an unknown type "chrome_open_tab"; did you mean "chrome_open_tabs"/);
    expect((error as Error).message).toContain('defineSetupStep("chrome_open_tab"');
    expect(ran).toEqual([]);
  });

  it('logs and skips steps the format ignores', async () => {
    const logs: string[] = [];
    await runSetupSteps(
      [{ type: 'upload_script_and_execute', parameters: { src: 'init.sh' }, ignoredBecause: 'legacy {type, parameters} step' }],
      context(logs),
      { phase: 'config' },
    );
    expect(logs).toEqual(['config step 0 (upload_script_and_execute) skipped: legacy {type, parameters} step']);
  });

  it('skips the task up front when a step needs an outside service, and lets SkipTask from a step through', async () => {
    const ran: string[] = [];
    defineSetupStep('test_mark3', async () => {
      ran.push('ran');
    });
    const upFront = await runSetupSteps(
      [
        { type: 'test_mark3', parameters: {} },
        { type: 'snowflake_login', parameters: {} },
      ],
      context(),
      { phase: 'config' },
    ).catch((e: unknown) => e);
    expect(upFront).toBeInstanceOf(SkipTask);
    expect((upFront as Error).message).toMatch(/^needs Snowflake/);
    expect(ran).toEqual([]);
    defineSetupStep('test_skip', async () => {
      throw new SkipTask('needs a printer');
    });
    await expect(runSetupSteps([{ type: 'test_skip', parameters: {} }], context(), { phase: 'config' })).rejects.toSatisfy(
      (error) => error instanceof SkipTask && error.message === 'needs a printer',
    );
  });

  it('keeps a handler the user registered before the builtins (googledrive with a real account)', async () => {
    // A fresh module graph would be needed to register before the builtins; here builtins are in, so replace it.
    registerBuiltinSteps();
    const original = setupSteps.get('googledrive')!;
    const calls: unknown[] = [];
    defineSetupStep('googledrive', async (_ctx, parameters) => {
      calls.push(parameters.operation);
    });
    try {
      registerBuiltinSteps();
      await runSetupSteps([{ type: 'googledrive', parameters: { operation: ['delete'] } }], context(), { phase: 'config' });
      expect(calls).toEqual([['delete']]);
    } finally {
      defineSetupStep('googledrive', original);
    }
    await expect(runSetupSteps([{ type: 'googledrive', parameters: {} }], context(), { phase: 'config' })).rejects.toThrow(
      /needs a Google account/,
    );
  });
});

describe('helpers', () => {
  it('closeNames finds typos and containing names', () => {
    expect(closeNames('activate_windows', ['activate_window', 'close_window', 'launch'])).toEqual(['activate_window']);
    expect(closeNames('chrome', ['chrome_open_tabs', 'launch'])).toEqual(['chrome_open_tabs']);
    expect(closeNames('zzz', ['launch'])).toEqual([]);
  });

  it('substituteVars leaves non-strings and unknown placeholders alone', () => {
    expect(substituteVars({ a: [1, true, null, '{X}{Y}'] }, { X: 'x' })).toEqual({ a: [1, true, null, 'x{Y}'] });
  });

  it("finds Spider2-V files beside the task JSON, in its tool folder or the dataset's settings/, and nowhere else", () => {
    const root = mkdtempSync(join(tmpdir(), 'deskbench-s2v-'));
    const taskDir = join(root, 'examples', 'airbyte', 'abc');
    const candidates = spider2vFileCandidates(taskDir, 'evaluation_examples/examples/airbyte/abc/init.sh');
    expect(candidates[0]).toBe(join(taskDir, 'init.sh'));
    expect(spider2vFileCandidates(taskDir, 'evaluation_examples/examples/airbyte/shared.sql')).toContain(join(root, 'examples', 'airbyte', 'shared.sql'));
    expect(spider2vFileCandidates(taskDir, 'evaluation_examples/settings/snowflake/settings.json')).toContain(
      join(root, 'settings', 'snowflake', 'settings.json'),
    );
    // Candidates in the task and tool folders only; never the dataset's other folders.
    const other = spider2vFileCandidates(taskDir, 'evaluation_examples/other/secret.json');
    expect(other).not.toContain(join(root, 'other', 'secret.json'));
    for (const candidate of other) expect(candidate.startsWith(join(root, 'examples', 'airbyte') + '/'), candidate).toBe(true);
    expect(spider2vFileCandidates(taskDir, '/etc/passwd')).toEqual([]);
    expect(spider2vFileCandidates(taskDir, '../../../../etc/passwd')).toEqual([]);
  });
});

describe('buildChromeHistory', () => {
  it("writes one urls and one visits row per entry with OSWorld's times and transition", () => {
    const now = new Date('2024-01-01T00:00:00Z');
    const bytes = buildChromeHistory(
      [
        { url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', title: 'Rick', visit_time_from_now_in_seconds: 3600 },
        { url: 'https://www.nytimes.com/', title: 'NYT', visit_time_from_now_in_seconds: 1631 },
        { url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', title: 'Rick', visit_time_from_now_in_seconds: 10 },
      ],
      now,
    );
    const path = join(mkdtempSync(join(tmpdir(), 'deskbench-history-test-')), 'History');
    writeFileSync(path, bytes);
    const db = new DatabaseSync(path, { readOnly: true, readBigInts: true });
    try {
      // Expected times from Python: int(((datetime(2024,1,1) - timedelta(seconds=s)) - datetime(1601,1,1)).total_seconds()*1e6)
      expect(db.prepare('SELECT id, url, title, visit_count, typed_count, last_visit_time, hidden FROM urls ORDER BY id').all()).toEqual([
        { id: 1n, url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', title: 'Rick', visit_count: 1n, typed_count: 0n, last_visit_time: 13348537200000000n, hidden: 0n },
        { id: 2n, url: 'https://www.nytimes.com/', title: 'NYT', visit_count: 1n, typed_count: 0n, last_visit_time: 13348539169000000n, hidden: 0n },
        { id: 3n, url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', title: 'Rick', visit_count: 1n, typed_count: 0n, last_visit_time: 13348540790000000n, hidden: 0n },
      ]);
      expect(db.prepare('SELECT url, visit_time, from_visit, transition, segment_id, visit_duration FROM visits ORDER BY id').all()).toEqual([
        { url: 1n, visit_time: 13348537200000000n, from_visit: 0n, transition: BigInt(VISIT_TRANSITION), segment_id: 0n, visit_duration: 0n },
        { url: 2n, visit_time: 13348539169000000n, from_visit: 0n, transition: 805306368n, segment_id: 0n, visit_duration: 0n },
        { url: 3n, visit_time: 13348540790000000n, from_visit: 0n, transition: 805306368n, segment_id: 0n, visit_duration: 0n },
      ]);
      expect(db.prepare("SELECT value FROM meta WHERE key = 'version'").get()).toEqual({ value: '70' });
    } finally {
      db.close();
    }
  });

  it('chromeTime counts µs from 1601-01-01', () => {
    expect(chromeTime(0)).toBe(11644473600000000n);
    expect(chromeTime(Date.UTC(2024, 0, 1))).toBe(13348540800000000n);
  });
});
