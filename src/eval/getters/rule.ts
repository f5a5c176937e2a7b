// Rule getters (OSWorld getters/misc.py): values written in the task itself, and `rule_relativeTime`, which turns
// phrases like "next Monday" into dates against the desktop's clock before the metric compares them.
import { type CivilDate, addDays, civilDate, weekday } from '../../python/datetime.ts';
import type { EvalEnv, Getter, Options } from '../registry.ts';
import { GetterError } from '../errors.ts';

/** `rule {rules}`: the rules as written. */
export const getRule: Getter = (_env, config) => {
  if (!('rules' in config)) throw new GetterError('rule: config.rules is missing');
  return config.rules;
};

/** `time_diff_range {diff_range_in_minutes}`: the value as written (null when absent). */
export const getTimeDiffRange: Getter = (_env, config) => config.diff_range_in_minutes ?? null;

/** Python's datetime(year, month, day), which refuses impossible dates (OSWorld hits this for some months). */
function makeDate(year: number, month: number, day: number): CivilDate {
  const date = civilDate(year, month, day);
  if (!date) throw new GetterError(`rule_relativeTime: ${year}-${month}-${day} is not a date (month must be in 1..12)`);
  return date;
}

function dayOfNextMonth(now: CivilDate, day: number): CivilDate {
  return now.month === 12 ? makeDate(now.year + 1, 1, day) : makeDate(now.year, now.month + 1, day);
}

/** OSWorld's "first monday N months later", including its year/month arithmetic (month 0 raises, as in Python). */
function firstMondayLater(now: CivilDate, months: 4 | 8): CivilDate {
  const nextYear = now.month >= 13 - months ? now.year + 1 : now.year;
  const first = makeDate(nextYear, (now.month + months) % 12, 1);
  return addDays(first, (6 - weekday(first) + 1) % 7);
}

const SIMPLE_DAYS: Record<string, number> = { tomorrow: 1 };

/** The phrase of a lone `from` (no `to`). */
function singleDay(phrase: string, now: CivilDate): CivilDate {
  if (phrase in SIMPLE_DAYS) return addDays(now, SIMPLE_DAYS[phrase]);
  const wd = weekday(now);
  switch (phrase) {
    case '5th next month':
      return dayOfNextMonth(now, 5);
    case '10th next month':
      return dayOfNextMonth(now, 10);
    case 'this month':
      return now;
    case 'next Monday':
      return addDays(now, 6 - wd + 1);
    case 'first monday four months later':
      return firstMondayLater(now, 4);
    case 'first monday eight months later':
      return firstMondayLater(now, 8);
  }
  throw new GetterError(`rule_relativeTime: relative time "${phrase}" is not supported without "to"`);
}

function fromDay(phrase: string, now: CivilDate): CivilDate {
  if (phrase in SIMPLE_DAYS) return addDays(now, SIMPLE_DAYS[phrase]);
  const wd = weekday(now);
  switch (phrase) {
    case 'this Saturday':
      return addDays(now, 5 - wd);
    case '10th next month':
      return dayOfNextMonth(now, 10);
    case 'next Monday':
    case 'next Monday split':
      return addDays(now, 6 - wd + 1);
    case 'next Friday':
      return addDays(now, wd < 4 ? 4 - wd : wd === 4 ? 7 : 7 - wd + 4);
    case 'next Saturday':
      return addDays(now, wd < 5 ? 5 - wd : wd === 5 ? 7 : 6);
    case 'next week Friday':
      return addDays(now, 7 - wd + 4);
    case 'next week Saturday':
      return addDays(now, 7 - wd + 5);
    case 'next week Sunday':
      return addDays(now, 7 - wd + 6);
  }
  throw new GetterError(`rule_relativeTime: relative time "${phrase}" is not supported as "from"`);
}

function toDay(phrase: string, fromPhrase: string, from: CivilDate, now: CivilDate): CivilDate {
  if (phrase in SIMPLE_DAYS) return addDays(now, SIMPLE_DAYS[phrase]);
  const wd = weekday(now);
  switch (phrase) {
    case 'this Sunday':
      return addDays(now, 6 - wd);
    case '11th next month':
      return dayOfNextMonth(now, 11);
    case 'next Friday':
    case 'next Friday split':
      if (fromPhrase === 'next Monday' || fromPhrase === 'next Monday split') return addDays(from, 4);
      return addDays(now, wd < 4 ? 4 - wd : 6 - wd + 5);
    case 'next Sunday':
      if (fromPhrase === 'next Friday' || fromPhrase === 'next Saturday') return addDays(from, 6 - weekday(from));
      return addDays(now, wd < 6 ? 6 - wd : 7);
    case 'next week Sunday':
      if (fromPhrase === 'next week Friday' || fromPhrase === 'next week Saturday') return addDays(from, 6 - weekday(from));
      return addDays(now, 7 - wd + 6);
  }
  throw new GetterError(`rule_relativeTime: relative time "${phrase}" is not supported as "to"`);
}

const DOW = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October',
  'November', 'December'];

/** OSWorld's apply_rules_to_timeFormat: each placeholder replaced once, in this order. */
export function applyTimeFormat(format: string, date: CivilDate): string {
  const two = (n: number) => (n < 10 ? `0${n}` : String(n));
  const replacements: [string, string][] = [
    ['{DoW}', DOW[weekday(date)]],
    ['{Month}', MONTHS[date.month - 1].slice(0, 3)],
    ['{DayD}', String(date.day)],
    ['{Year}', String(date.year)],
    ['{Month0D}', two(date.month)],
    ['{month}', MONTHS[date.month - 1].toLowerCase()],
    ['{MonthFull}', MONTHS[date.month - 1]],
    ['{Day0D}', two(date.day)],
    ['{MonthD}', String(date.month)],
  ];
  let text = format;
  for (const [placeholder, value] of replacements) text = text.replace(placeholder, () => value);
  return text;
}

function formatValue(value: unknown, date: CivilDate, key: string): unknown {
  if (Array.isArray(value)) return value.map((v) => applyTimeFormat(String(v), date));
  if (typeof value !== 'string') throw new GetterError(`rule_relativeTime: rules.expected.${key} must be a string (got ${typeof value})`);
  return applyTimeFormat(value, date);
}

/** Today's date in an IANA zone, by the host's clock. */
export function todayInZone(timeZone: string, at = new Date()): CivilDate {
  let zone = timeZone;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
  } catch {
    zone = 'UTC'; // OSWorld falls back to UTC for an unknown zone
  }
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, year: 'numeric', month: 'numeric', day: 'numeric' })
    .formatToParts(at);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return { year: part('year'), month: part('month'), day: part('day') };
}

/** The desktop's local date (`datetime.now().astimezone()` run inside it), or null when it cannot tell. */
async function desktopToday(env: EvalEnv): Promise<CivilDate | null> {
  try {
    const run = await env.desktop.execute(['python3', '-c', 'import datetime; print(datetime.datetime.now().astimezone().isoformat())']);
    const match = /^(\d{4})-(\d{2})-(\d{2})T/m.exec(run.output.trim());
    if (match) return { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
    const date = await env.desktop.execute(['date', '+%Y-%m-%d']);
    const plain = /^(\d{4})-(\d{2})-(\d{2})$/m.exec(date.output.trim());
    return plain ? { year: Number(plain[1]), month: Number(plain[2]), day: Number(plain[3]) } : null;
  } catch {
    return null;
  }
}

/** The rules with `relativeTime` phrases resolved to dates in `expected` (pure, for a given "now"). */
export function resolveRelativeTime(rules: Options, now: CivilDate): Options {
  const relativeTime = rules.relativeTime as { from?: unknown; to?: unknown } | undefined;
  const expected = rules.expected as Record<string, unknown> | undefined;
  if (!relativeTime || typeof relativeTime.from !== 'string') throw new GetterError('rule_relativeTime: rules.relativeTime.from must be a string');
  if (!expected || typeof expected !== 'object') throw new GetterError('rule_relativeTime: rules.expected must be an object');
  const resolved = { ...expected };
  if (relativeTime.to === undefined) {
    resolved.time = formatValue(expected.time, singleDay(relativeTime.from, now), 'time');
  } else {
    if (typeof relativeTime.to !== 'string') throw new GetterError('rule_relativeTime: rules.relativeTime.to must be a string');
    const from = fromDay(relativeTime.from, now);
    if (relativeTime.from === 'next Monday split') {
      for (const key of ['puDay', 'puMonth', 'puYear']) resolved[key] = formatValue(expected[key], from, key);
    } else {
      resolved.from = formatValue(expected.from, from, 'from');
    }
    const to = toDay(relativeTime.to, relativeTime.from, from, now);
    if (relativeTime.to === 'next Friday split') {
      for (const key of ['doDay', 'doMonth', 'doYear']) resolved[key] = formatValue(expected[key], to, key);
    } else {
      resolved.to = formatValue(expected.to, to, 'to');
    }
  }
  return { ...rules, expected: resolved };
}

/**
 * `rule_relativeTime {rules: {relativeTime: {from, to?}, expected, timezone?}}`. "Now" is the desktop's clock, or
 * the host's clock in `timezone` when the task names one (as OSWorld); the host's own date when the desktop is silent.
 */
export const getRuleRelativeTime: Getter = async (env, config) => {
  const rules = config.rules as Options | undefined;
  if (!rules || typeof rules !== 'object') throw new GetterError('rule_relativeTime: config.rules must be an object');
  const now = typeof rules.timezone === 'string' && rules.timezone
    ? todayInZone(rules.timezone)
    : (await desktopToday(env)) ?? todayInZone(Intl.DateTimeFormat().resolvedOptions().timeZone);
  return resolveRelativeTime(rules, now);
};

export const ruleGetters: Record<string, Getter> = {
  rule: getRule,
  rule_relativeTime: getRuleRelativeTime,
  time_diff_range: getTimeDiffRange,
};
