// Python's `str(x)` and `repr(x)` for JSON-like values and floats: True/None, `['a', 1]`, `{'k': 'v'}`, and the
// shortest round-trip float repr with Python's switch to exponent notation.

/** `str(x)` for JSON-like values: True/None, float repr, `['a', 1]` and `{'k': 'v'}` reprs. */
export function pythonStr(value: unknown): string {
  if (typeof value === 'string') return value;
  return pythonRepr(value);
}

function pythonRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return pythonNumberRepr(value);
  if (typeof value === 'string') return stringRepr(value);
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(', ')}]`;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') {
    const items = Object.entries(value as Record<string, unknown>).map(([k, v]) => `${stringRepr(k)}: ${pythonRepr(v)}`);
    return `{${items.join(', ')}}`;
  }
  return String(value);
}

/**
 * Python's repr of a number that came from JSON: integers print without ".0" (JSON cannot tell 1 from 1.0 once
 * parsed), other floats use Python's shortest repr, which switches to exponent notation at 1e16 and writes "1e-05".
 */
function pythonNumberRepr(n: number): string {
  if (Number.isNaN(n)) return 'nan';
  if (!Number.isFinite(n)) return n > 0 ? 'inf' : '-inf';
  if (Number.isInteger(n) && Math.abs(n) < 1e16) return String(n);
  const abs = Math.abs(n);
  if (abs >= 1e16 || abs < 1e-4) {
    const [mantissa, exponent] = n.toExponential().split('e');
    const exp = Number(exponent);
    return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  return String(n);
}

const CONTROL_ESCAPES: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** repr(str): single quotes unless the text holds a ' and no ", as Python picks them; ASCII control characters escaped. */
function stringRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  const escaped = text.replace(/[\\\x00-\x1f\x7f'"]/g, (char) => {
    if (char === '\\') return '\\\\';
    if (char === "'" || char === '"') return char === quote ? `\\${char}` : char;
    return CONTROL_ESCAPES[char] ?? `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`;
  });
  return quote + escaped + quote;
}

/** Python's `repr(float)` / `str(float)`: shortest round-trip digits, scientific notation below 1e-4 and from 1e16. */
export function pythonFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const [mantissa, exponentText] = x.toExponential().split('e');
  const exponent = Number(exponentText);
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace('-', '').replace('.', '');
  const sign = negative ? '-' : '';
  if (exponent < -4 || exponent >= 16) {
    const body = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const e = Math.abs(exponent).toString().padStart(2, '0');
    return `${sign}${body}e${exponent < 0 ? '-' : '+'}${e}`;
  }
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  const intPart = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0');
  const fraction = digits.slice(exponent + 1);
  return `${sign}${intPart}.${fraction || '0'}`;
}
