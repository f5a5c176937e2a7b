// Python values as openpyxl and pandas hand them to OSWorld's table metrics. The metrics compare these with Python's
// `==` and print them with `str()`, and both depend on the Python type: `5` (int) prints "5", `5.0` (float) "5.0",
// and `1 == 1.0 == True`. A tagged union keeps the type that JavaScript numbers lose.

import { pythonFloatRepr } from './repr.ts';

export type PyValue =
  | { t: 'none' }
  | { t: 'bool'; v: boolean }
  | { t: 'int'; v: number }
  | { t: 'float'; v: number }
  | { t: 'str'; v: string }
  /** datetime.datetime, as milliseconds since 1970-01-01 read as a naive (UTC) clock. */
  | { t: 'datetime'; ms: number }
  /** datetime.time, milliseconds since midnight. */
  | { t: 'time'; ms: number }
  /** datetime.timedelta, milliseconds. */
  | { t: 'timedelta'; ms: number };

export const NONE: PyValue = { t: 'none' };
export const NAN: PyValue = { t: 'float', v: Number.NaN };
export const py = {
  str: (v: string): PyValue => ({ t: 'str', v }),
  int: (v: number): PyValue => ({ t: 'int', v }),
  float: (v: number): PyValue => ({ t: 'float', v }),
  bool: (v: boolean): PyValue => ({ t: 'bool', v }),
};

/**
 * The value as Python's `==` sees it, for `pythonEquals`: numbers and bools as numbers (1 == 1.0 == True), NaN
 * unequal to itself, and datetimes, times and timedeltas equal only to their own kind.
 */
export function equalityOperand(value: PyValue): unknown {
  switch (value.t) {
    case 'none':
      return null;
    case 'datetime':
    case 'time':
    case 'timedelta':
      return { [value.t]: value.ms };
    default:
      return value.v;
  }
}

export function isNan(value: PyValue): boolean {
  return value.t === 'float' && Number.isNaN(value.v);
}

/** `str(value)` in Python. */
export function pyStr(value: PyValue): string {
  switch (value.t) {
    case 'none':
      return 'None';
    case 'bool':
      return value.v ? 'True' : 'False';
    case 'int':
      return String(value.v);
    case 'float':
      return pythonFloatRepr(value.v);
    case 'str':
      return value.v;
    case 'datetime':
      return formatDateTime(value.ms);
    case 'time':
      return formatTime(value.ms);
    case 'timedelta':
      return formatTimedelta(value.ms);
  }
}

/** The plain JavaScript value for the rule matcher and for messages: numbers, strings, booleans, null, ISO dates. */
export function toPlain(value: PyValue): string | number | boolean | null {
  switch (value.t) {
    case 'none':
      return null;
    case 'bool':
    case 'int':
    case 'float':
    case 'str':
      return value.v;
    default:
      return pyStr(value);
  }
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function fractionSuffix(ms: number): string {
  const micro = Math.round(ms * 1000) % 1_000_000;
  return micro ? `.${pad(micro, 6)}` : '';
}

function formatDateTime(ms: number): string {
  const d = new Date(Math.floor(ms / 1000) * 1000);
  const date = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  return `${date} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}${fractionSuffix(((ms % 1000) + 1000) % 1000)}`;
}

function formatTime(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  return `${pad(Math.floor(seconds / 3600))}:${pad(Math.floor(seconds / 60) % 60)}:${pad(seconds % 60)}${fractionSuffix(ms % 1000)}`;
}

function formatTimedelta(ms: number): string {
  const days = Math.floor(ms / 86_400_000);
  const rest = ms - days * 86_400_000;
  const seconds = Math.floor(rest / 1000);
  const clock = `${Math.floor(seconds / 3600)}:${pad(Math.floor(seconds / 60) % 60)}:${pad(seconds % 60)}${fractionSuffix(rest % 1000)}`;
  return days ? `${days} day${Math.abs(days) === 1 ? '' : 's'}, ${clock}` : clock;
}
