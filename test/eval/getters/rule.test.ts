// Dates below were worked out by hand from a calendar (2024-05-15 is a Wednesday).
import { describe, expect, test } from 'vitest';
import { applyTimeFormat, getRule, getRuleRelativeTime, getTimeDiffRange, resolveRelativeTime, todayInZone } from '../../../src/eval/getters/rule.ts';
import { weekday } from '../../../src/python/datetime.ts';
import { makeEnv } from '../engine-helpers.ts';

const wednesday = { year: 2024, month: 5, day: 15 };
const single = (from: string, time: unknown, now = wednesday) =>
  (resolveRelativeTime({ relativeTime: { from }, expected: { time, keep: 'me' } }, now).expected as Record<string, unknown>);
const range = (from: string, to: string, expected: Record<string, string>, now = wednesday) =>
  resolveRelativeTime({ relativeTime: { from, to }, expected }, now).expected as Record<string, unknown>;

describe('rule and time_diff_range', () => {
  test('return what the task wrote', async () => {
    const env = makeEnv();
    expect(await getRule(env, { type: 'rule', rules: { expected: ['/manchester/'] } })).toEqual({ expected: ['/manchester/'] });
    expect(await getTimeDiffRange(env, { type: 'time_diff_range', diff_range_in_minutes: 10 })).toBe(10);
    expect(await getTimeDiffRange(env, { type: 'time_diff_range' })).toBeNull();
    expect(() => getRule(env, { type: 'rule' })).toThrow('rule: config.rules is missing');
  });
});

describe('rule_relativeTime', () => {
  test('weekday counts Monday as 0, as Python does', () => {
    expect(weekday(wednesday)).toBe(2);
    expect(weekday({ year: 2025, month: 1, day: 6 })).toBe(0);
  });

  test('placeholders are filled once each, in OSWorld order', () => {
    const date = { year: 2024, month: 6, day: 5 };
    expect(applyTimeFormat('{DoW}, {Month} {Day0D}, {Year}', date)).toBe('Wed, Jun 05, 2024');
    expect(applyTimeFormat('{Year}-{Month0D}-{DayD} {month} {MonthFull} {MonthD}', date)).toBe('2024-06-5 june June 6');
    expect(applyTimeFormat('{DayD}/{DayD}', date)).toBe('5/{DayD}');
  });

  test('single phrases', () => {
    expect(single('tomorrow', '{DoW}, {Month} {Day0D}, {Year}')).toEqual({ time: 'Thu, May 16, 2024', keep: 'me' });
    expect(single('5th next month', '{Year}-{Month0D}-{DayD}').time).toBe('2024-06-5');
    expect(single('10th next month', '{Year}-{Month0D}-{DayD}').time).toBe('2024-06-10');
    expect(single('next Monday', ['{Year}-{Month0D}-{Day0D}']).time).toEqual(['2024-05-20']);
    expect(single('this month', '{month}-weather').time).toBe('may-weather');
    expect(single('first monday four months later', '{Year}-{Month0D}-{Day0D}').time).toBe('2024-09-02');
    expect(single('first monday eight months later', '{MonthFull} {Day0D}, 10:15 AM').time).toBe('January 06, 10:15 AM');
  });

  test('next month wraps the year in December', () => {
    expect(single('5th next month', '{Year}-{Month0D}-{Day0D}', { year: 2024, month: 12, day: 20 }).time).toBe('2025-01-05');
  });

  test("OSWorld's month arithmetic fails for April (eight months later) as Python's datetime does", () => {
    expect(() => single('first monday eight months later', '{Year}', { year: 2024, month: 4, day: 10 })).toThrow('not a date');
  });

  test('ranges', () => {
    expect(range('next week Saturday', 'next week Sunday', { from: '{DoW}, {Month} {Day0D}', to: '{DoW}, {Month} {Day0D}', city: 'NYC' }))
      .toEqual({ from: 'Sat, May 25', to: 'Sun, May 26', city: 'NYC' });
    expect(range('next week Friday', 'next week Sunday', { from: '{Day0D}', to: '{Day0D}' })).toEqual({ from: '24', to: '26' });
    expect(range('10th next month', '11th next month', { from: '{Year}-{Month0D}-{Day0D}', to: '{Year}-{Month0D}-{Day0D}' }))
      .toEqual({ from: '2024-06-10', to: '2024-06-11' });
    expect(range('next Saturday', 'next Sunday', { from: '{Day0D}', to: '{Day0D}' })).toEqual({ from: '18', to: '19' });
    expect(range('tomorrow', 'next Friday', { from: '{Day0D}', to: '{Day0D}' })).toEqual({ from: '16', to: '17' });
    expect(range('this Saturday', 'this Sunday', { from: '{Day0D}', to: '{Day0D}' })).toEqual({ from: '18', to: '19' });
  });

  test('split ranges fill pu*/do* fields', () => {
    const got = range('next Monday split', 'next Friday split',
      { puDay: '{DayD}', puMonth: '{MonthD}', puYear: '{Year}', doDay: '{DayD}', doMonth: '{MonthD}', doYear: '{Year}' });
    expect(got).toEqual({ puDay: '20', puMonth: '5', puYear: '2024', doDay: '24', doMonth: '5', doYear: '2024' });
  });

  test("OSWorld's quirks: next Friday from a Friday is a week on; this Saturday seen on a Sunday is yesterday", () => {
    expect(range('next Friday', 'next Sunday', { from: '{Day0D}', to: '{Day0D}' }, { year: 2024, month: 5, day: 17 }))
      .toEqual({ from: '24', to: '26' });
    expect(range('this Saturday', 'this Sunday', { from: '{Day0D}', to: '{Day0D}' }, { year: 2024, month: 5, day: 19 }))
      .toEqual({ from: '18', to: '19' });
  });

  test('an unknown phrase is a clear error', () => {
    expect(() => single('the day after', '{Year}')).toThrow('relative time "the day after" is not supported');
  });

  test("a task's timezone picks the date in that zone", () => {
    const instant = new Date('2024-05-15T02:00:00Z');
    expect(todayInZone('America/New_York', instant)).toEqual({ year: 2024, month: 5, day: 14 });
    expect(todayInZone('Asia/Tokyo', instant)).toEqual({ year: 2024, month: 5, day: 15 });
    expect(todayInZone('Mars/Olympus', instant)).toEqual({ year: 2024, month: 5, day: 15 });
  });

  test("the getter resolves against today's date in the task's timezone and leaves the config intact", async () => {
    const config = { type: 'rule_relativeTime', rules: { relativeTime: { from: 'this month' }, timezone: 'UTC', expected: { time: '{Year}-{Month0D}' } } };
    const got = (await getRuleRelativeTime(makeEnv(), config)) as { expected: { time: string } };
    const now = new Date();
    expect(got.expected.time).toBe(`${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}`);
    expect(config.rules.expected.time).toBe('{Year}-{Month0D}');
  });
});
