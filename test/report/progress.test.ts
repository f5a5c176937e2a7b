import { describe, expect, test } from 'vitest';
import { writeHtmlReport } from '../../src/node/report/html.ts';
import { buildReport, type TaskRecord } from '../../src/node/report/aggregate.ts';
import { formatProgress, shortAction } from '../../src/contract/progress.ts';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

describe('task progress', () => {
  test('each phase in a word, the agent phase with its step and last action', () => {
    expect(formatProgress({ phase: 'desktop' })).toBe('starting the desktop');
    expect(formatProgress({ phase: 'setup' })).toBe('setup');
    expect(formatProgress({ phase: 'agent' })).toBe('agent');
    expect(formatProgress({ phase: 'agent', step: 3, maxSteps: 15, action: 'click(512, 300)' })).toBe('agent step 3/15: click(512, 300)');
    expect(formatProgress({ phase: 'evaluation' })).toBe('evaluating');
  });

  test('actions shortened: pyautogui prefix dropped, whitespace collapsed, long code cut', () => {
    expect(shortAction('pyautogui.click(512, 300)')).toBe('click(512, 300)');
    expect(shortAction("import time\npyautogui.hotkey('ctrl', 's')\ntime.sleep(1)")).toBe("import time hotkey('ctrl', 's') time.sleep(1)");
    expect(shortAction({ action_type: 'CLICK', x: 10, y: 20 })).toBe('CLICK {"x":10,"y":20}');
    expect(shortAction('DONE')).toBe('DONE');
    const long = shortAction(`pyautogui.typewrite('${'a'.repeat(200)}')`);
    expect(long).toHaveLength(60);
    expect(long.endsWith('…')).toBe(true);
  });

  test('the HTML task page lists the timeline, and where a task that did not pass was last seen', () => {
    const dir = mkdtempSync(join(tmpdir(), 'deskbench-progress-'));
    const record: TaskRecord = {
      id: 'task-1', name: 'os/task-1: do it', domain: 'os', format: 'osworld', tags: ['os'], testState: 'failed', state: 'TIMED_OUT',
      score: null, steps: 2, durationMs: 9000, evalError: null, error: 'timed out', resultDir: null,
      progress: [
        { phase: 'desktop', atMs: 0 },
        { phase: 'setup', atMs: 6200 },
        { phase: 'agent', atMs: 7000 },
        { phase: 'agent', step: 1, maxSteps: 15, action: 'click(1, 2)', atMs: 8000 },
        { phase: 'agent', step: 2, maxSteps: 15, action: "press('enter')", atMs: 8900 },
      ],
    };
    writeHtmlReport(buildReport([record]), dir);
    const page = readFileSync(join(dir, 'tasks', 'os__task-1.html'), 'utf8');
    expect(page).toContain('last seen: agent step 2/15: press(&#39;enter&#39;)');
    expect(page).toMatch(/<ol id="progress"><li><span class="num">0\.0 s<\/span> starting the desktop<\/li><li><span class="num">6\.2 s<\/span> setup/);
    expect(page).toContain('8.0 s</span> agent step 1/15: click(1, 2)');
  });
});
