import { describe, expect, test } from 'vitest';
import { type TaskRecord, buildReport, formatReport, statsOf } from '../../src/node/report/aggregate.ts';

const record = (over: Partial<TaskRecord>): TaskRecord => ({
  id: 'x', name: 'x', domain: 'os', format: 'osworld', tags: ['osworld', 'os'], testState: 'passed', state: 'success',
  score: 1, steps: 2, durationMs: 1000, evalError: null, error: null, resultDir: null, ...over,
});

describe('success rates', () => {
  // Four tasks: scores 1, 0.5 (partial credit), 0, and one that broke before a score (SETUP_ERROR).
  const records = [
    record({ id: 'a', score: 1 }),
    record({ id: 'b', score: 0.5, testState: 'failed' }),
    record({ id: 'c', score: 0, testState: 'failed', steps: 6 }),
    record({ id: 'd', score: null, testState: 'failed', state: 'SETUP_ERROR', error: 'setup failed', steps: 0 }),
  ];

  test('OSWorld rate leaves out tasks without a result; the overall rate counts them 0', () => {
    const stats = statsOf(records);
    // Σ = 1.5 over 3 scored tasks → 50 %; over all 4 → 37.5 %.
    expect(stats).toMatchObject({ tasks: 4, passed: 1, scored: 3, meanScore: 0.5, osworldRate: 50, overallRate: 37.5 });
    expect(stats.meanSteps).toBe(2.5); // (2 + 2 + 6 + 0) / 4
    expect(stats.seconds).toBe(4);
  });

  test('a GUI-OS task without evaluator (-1) counts 0, not -1', () => {
    expect(statsOf([record({ score: -1, testState: 'failed' }), record({ score: 1 })]).osworldRate).toBe(50);
  });

  test('grouped by domain and by tag, printed as a table', () => {
    const report = buildReport([...records, record({ id: 'e', domain: 'chrome', tags: ['osworld', 'chrome', 'internet'], score: 1 })]);
    expect(Object.keys(report.byDomain)).toEqual(['chrome', 'os']);
    expect(report.byDomain.chrome).toMatchObject({ tasks: 1, osworldRate: 100 });
    expect(report.byTag.osworld).toMatchObject({ tasks: 5, scored: 4, osworldRate: 62.5, overallRate: 50 });
    expect(report.byTag.internet.tasks).toBe(1);
    const table = formatReport(report);
    expect(table).toMatch(/all tasks\s+5\s+2\s+0\.63\s+62\.50\s+50\.00/);
    expect(table).toMatch(/^internet\s+1\s+1/m);
  });
});
