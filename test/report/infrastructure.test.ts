// Tasks ended by the infrastructure (a download that failed, a file that changed upstream) are told apart from the
// agent's zeros: the verdict carries the error's code, report.json counts them, the table and the HTML report say so.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { DownloadError, FileChangedError } from '../../src/files/errors.ts';
import { type TaskRecord, buildReport, formatReport } from '../../src/node/report/aggregate.ts';
import { writeHtmlReport } from '../../src/node/report/html.ts';
import { failureVerdict } from '../../src/worker/verdicts.ts';
import { SetupStepError } from '../../src/setup/errors.ts';

const record = (over: Partial<TaskRecord>): TaskRecord => ({
  id: 'x', name: 'x', domain: 'os', format: 'osworld', tags: ['os'], testState: 'passed', state: 'success',
  score: 1, steps: 2, durationMs: 1000, evalError: null, error: null, resultDir: null, ...over,
});

const aliveDesktop = { id: 'd', isAlive: async () => true } as never;

test('a setup step that met a changed file is a SETUP_ERROR with the infrastructure code; an ordinary setup error has none', async () => {
  const changed = new SetupStepError('config', 0, 'download', 'failed', new FileChangedError('https://h/a.txt', 'a'.repeat(64), 'b'.repeat(64), 'the cached copy /c/a.txt'));
  const verdict = await failureVerdict(changed, changed.message, 'setup', aliveDesktop);
  expect(verdict).toMatchObject({ state: 'SETUP_ERROR', infraError: 'DESKBENCH_FILE_CHANGED' });
  const failed = await failureVerdict(new DownloadError('Could not download …'), 'Could not download …', 'setup', aliveDesktop);
  expect(failed.infraError).toBe('DESKBENCH_DOWNLOAD_FAILED');
  const ordinary = await failureVerdict(new Error('execute: exit 1'), 'execute: exit 1', 'setup', aliveDesktop);
  expect(ordinary.state).toBe('SETUP_ERROR');
  expect(ordinary.infraError).toBeUndefined();
});

test('report.json counts infrastructure errors apart, by code; the table and the HTML report say so', () => {
  const records = [
    record({ id: 'a' }),
    record({ id: 'b', score: 0, testState: 'failed' }),
    record({ id: 'c', score: null, testState: 'failed', state: 'SETUP_ERROR', error: 'setup failed: … the file changed upstream …', infraError: 'DESKBENCH_FILE_CHANGED' }),
    record({ id: 'd', score: null, testState: 'failed', state: 'SETUP_ERROR', error: 'setup failed: Could not download …', infraError: 'DESKBENCH_DOWNLOAD_FAILED' }),
  ];
  const report = buildReport(records);
  expect(report.infrastructure).toEqual({ errors: 2, byCode: { DESKBENCH_FILE_CHANGED: 1, DESKBENCH_DOWNLOAD_FAILED: 1 }, tasks: ['os/c', 'os/d'] });
  // The rates are as before: the two count 0 in the overall rate and are left out of the OSWorld rate.
  expect(report.total).toMatchObject({ tasks: 4, scored: 2, osworldRate: 50, overallRate: 25 });
  expect(formatReport(report)).toContain("2 tasks ended with an infrastructure error (1 DESKBENCH_FILE_CHANGED, 1 DESKBENCH_DOWNLOAD_FAILED), not the agent's");
  expect(buildReport(records.slice(0, 2)).infrastructure).toBeUndefined();

  const results = mkdtempSync(join(tmpdir(), 'deskbench-infra-'));
  writeHtmlReport(report, results);
  const index = readFileSync(join(results, 'index.html'), 'utf8');
  expect(index).toContain('<p id="infrastructure" class="fail">2 tasks ended with an infrastructure error');
  expect(index).toContain('SETUP_ERROR <span class="tag infra" title="DESKBENCH_FILE_CHANGED">infrastructure</span>');
  expect(readFileSync(join(results, 'tasks', 'os__c.html'), 'utf8')).toContain('<h2>Error (infrastructure: DESKBENCH_FILE_CHANGED)</h2>');
});
