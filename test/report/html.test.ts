// The HTML report's pages from a results folder on disk: steps per agent turn with thumbnails, the final screen in the
// task list, and pass rates per tag.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { type TaskRecord, buildReport } from '../../src/node/report/aggregate.ts';
import { writeHtmlReport } from '../../src/node/report/html.ts';
import { parseVersions } from '../../src/desktop/environment.ts';

const record = (over: Partial<TaskRecord>): TaskRecord => ({
  id: 'x', name: 'x', domain: 'os', format: 'osworld', tags: ['os'], testState: 'passed', state: 'success',
  score: 1, steps: 2, durationMs: 1000, evalError: null, error: null, resultDir: null, ...over,
});

test('a turn of three actions is one step with three actions, each with its screen as a thumbnail', () => {
  const results = mkdtempSync(join(tmpdir(), 'deskbench-html-'));
  const dir = 'pyautogui/screenshot/scripted/os/t1';
  mkdirSync(join(results, dir), { recursive: true });
  const line = (step: number, n: number, action: string) =>
    JSON.stringify({ step_num: step, action, response: step === 1 ? 'I will type it' : null, info: {}, screenshot_file: `step_${step}_${n}.png` });
  writeFileSync(join(results, dir, 'traj.jsonl'), [line(1, 1, "pyautogui.click(1, 2)"), line(1, 2, "pyautogui.write('a')"), line(1, 3, "pyautogui.press('enter')"), line(2, 1, 'DONE')].join('\n') + '\n');
  writeFileSync(join(results, dir, 'final.png'), 'png');
  const report = buildReport([
    record({ id: 't1', resultDir: dir, tags: ['os', 'gui'] }),
    record({ id: 't2', tags: ['os'], testState: 'failed', score: 0 }),
  ]);
  writeHtmlReport(report, results);

  const page = readFileSync(join(results, 'tasks', 'os__t1.html'), 'utf8');
  expect(page).toContain('Trajectory (2 steps, 4 actions)');
  expect(page.match(/<b>Step 1<\/b>/g)).toHaveLength(1);
  expect(page).toContain('<b>Step 1</b> <small>(3 actions)</small>');
  expect(page).toContain('<b>Step 2</b> <small>(1 action)</small>');
  expect(page.match(/Response:/g)).toHaveLength(1); // said once per turn, not once per action
  expect(page.match(/<img class="thumb"/g)).toHaveLength(4);
  expect(page).toContain(`<a href="../${dir}/step_1_2.png"><img class="thumb" alt="screen after this action" src="../${dir}/step_1_2.png"></a>`);

  const index = readFileSync(join(results, 'index.html'), 'utf8');
  // The final screen in the task's row (t2 has none), linked to its page.
  expect(index).toContain(`<a href="tasks/os__t1.html"><img class="row-thumb" loading="lazy" alt="final screen" src="${dir}/final.png"></a>`);
  expect(index.match(/row-thumb" loading/g)).toHaveLength(1);
  // Pass rates per tag: os 1 of 2, gui 1 of 1.
  expect(index).toMatch(/<tr><td><span class="tag">os<\/span><\/td><td class="num">2<\/td><td class="num">1<\/td><td class="num">50\.00<\/td>/);
  expect(index).toMatch(/<tr><td><span class="tag">gui<\/span><\/td><td class="num">1<\/td><td class="num">1<\/td><td class="num">100\.00<\/td>/);
});

test('the image and app versions: on the task page and once for the run, with the number of tasks on each', () => {
  const results = mkdtempSync(join(tmpdir(), 'deskbench-html-'));
  const desktop = { image: 'deskbench/desktop:latest', imageId: `sha256:${'a'.repeat(64)}`, versions: { chromium: '156.0', gimp: '2.10.34' } };
  const report = buildReport([record({ id: 't1', desktop }), record({ id: 't2', desktop }), record({ id: 't3' })]);
  expect(report.desktops).toEqual([{ ...desktop, tasks: 2 }]);
  writeHtmlReport(report, results);
  expect(readFileSync(join(results, 'index.html'), 'utf8')).toContain(`<tr><td>deskbench/desktop:latest</td><td><code>sha256:${'a'.repeat(64)}</code></td><td>chromium 156.0 · gimp 2.10.34</td><td class="num">2</td></tr>`);
  expect(readFileSync(join(results, 'tasks', 'os__t1.html'), 'utf8')).toContain('Desktop: deskbench/desktop:latest <code>sha256:');
  expect(buildReport([record({})]).desktops).toBeUndefined();
});

test('versions as dpkg-query prints them, without the Debian epoch', () => {
  expect(parseVersions('chromium\t156.0.8078.79-1~deb12u1\nlibreoffice-core\t4:7.4.7-1+deb12u14\n\ncode-server\t4.99.0\n')).toEqual({
    chromium: '156.0.8078.79-1~deb12u1',
    'libreoffice-core': '7.4.7-1+deb12u14',
    'code-server': '4.99.0',
  });
});

test("a report of several agents' runs (deskbench verify) shows each agent's runs apart, never one rate over all", () => {
  const results = mkdtempSync(join(tmpdir(), 'deskbench-html-'));
  const records = [
    record({ id: 'a', agent: 'scripted', domain: 'chrome' }),
    record({ id: 'a', agent: 'noop', domain: 'chrome', testState: 'failed', score: 0 }),
    record({ id: 'b', agent: 'scripted', domain: 'os' }),
    record({ id: 'b', agent: 'noop', domain: 'os', testState: 'failed', score: 0 }),
    record({ id: 'b', agent: 'fail', domain: 'os' }),
  ];
  writeHtmlReport(buildReport(records), results);
  const index = readFileSync(join(results, 'index.html'), 'utf8');
  // No table or line that mixes the agents: 5 runs, 3 "passed", 60 % would mean nothing.
  expect(index).not.toContain('id="domains"');
  expect(index).not.toContain('id="tags"');
  expect(index).not.toContain('OSWorld rate');
  expect(index).toContain('<p>5 runs · generated');
  const table = (agent: string) => index.match(new RegExp(`<table class="agent-runs" data-agent="${agent}">.*?</table>`, 's'))?.[0] ?? '';
  expect(table('scripted')).toMatch(/<tr><td>chrome<\/td><td class="num">1<\/td><td class="num">1<\/td>.*<tr><td>os<\/td><td class="num">1<\/td><td class="num">1<\/td>/s);
  expect(table('noop')).toMatch(/<tr><td>chrome<\/td><td class="num">1<\/td><td class="num">0<\/td><td class="num">0\.00<\/td>/);
  expect(table('fail')).toMatch(/<tr><td>os<\/td><td class="num">1<\/td><td class="num">1<\/td>/);
  expect(table('fail')).not.toContain('chrome');
  // A report of one agent keeps its rates.
  writeHtmlReport(buildReport([record({ id: 'c' })]), results);
  expect(readFileSync(join(results, 'index.html'), 'utf8')).toContain('id="domains"');
});
