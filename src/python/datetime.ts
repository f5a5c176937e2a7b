// Python's datetime where task files and OSWorld's getters rely on it: strftime's directives, calendar days, weekday().

/** Python's `datetime.strftime` for the directives task files use. */
export function strftime(format: string, date: Date): string {
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  const days = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
  const months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October',
    'November', 'December'];
  const startOfYear = new Date(date.getFullYear(), 0, 1);
  const dayOfYear = Math.round((+new Date(date.getFullYear(), date.getMonth(), date.getDate()) - +startOfYear) / 864e5) + 1;
  const hour12 = date.getHours() % 12 || 12;
  const directives: Record<string, string> = {
    Y: String(date.getFullYear()), y: pad(date.getFullYear() % 100), m: pad(date.getMonth() + 1), d: pad(date.getDate()),
    H: pad(date.getHours()), I: pad(hour12), M: pad(date.getMinutes()), S: pad(date.getSeconds()),
    f: pad(date.getMilliseconds() * 1000, 6), p: date.getHours() < 12 ? 'AM' : 'PM', j: pad(dayOfYear, 3),
    a: days[date.getDay()].slice(0, 3), A: days[date.getDay()], b: months[date.getMonth()].slice(0, 3),
    B: months[date.getMonth()], '%': '%',
  };
  return format.replace(/%(.)/g, (whole, code: string) => directives[code] ?? whole);
}

/** A calendar day, as Python's `datetime.date` holds it. */
export interface CivilDate {
  year: number;
  month: number; // 1–12
  day: number;
}

/** Python's weekday(): Monday 0 … Sunday 6. */
export function weekday(date: CivilDate): number {
  return (new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay() + 6) % 7;
}

/** `date + timedelta(days=n)`. */
export function addDays(date: CivilDate, days: number): CivilDate {
  const moved = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: moved.getUTCFullYear(), month: moved.getUTCMonth() + 1, day: moved.getUTCDate() };
}

/** `date(year, month, day)`, or undefined where Python raises ValueError (month 13, February 30). */
export function civilDate(year: number, month: number, day: number): CivilDate | undefined {
  const check = new Date(Date.UTC(year, month - 1, day));
  if (month < 1 || month > 12 || check.getUTCDate() !== day) return undefined;
  return { year, month, day };
}
