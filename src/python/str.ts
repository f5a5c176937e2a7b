// Python `str` methods whose results differ from JavaScript's and change scores: `splitlines()`, `strip()`, `split()`,
// `sorted()` on strings (code points), `re.sub(r'\s+', ' ', s)`, `re.split(r'\s', s)`, `isdigit()`, `expandtabs()`.

/** `str.splitlines()`: every Unicode line boundary, no trailing empty item. */
export function pythonSplitlines(text: string): string[] {
  const lines = text.split(/\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/);
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Python's str.isspace() characters (JavaScript's \s adds U+FEFF and lacks U+001C–U+001F). */
const PYTHON_WHITESPACE =
  ' \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000';
/** The same set as a regular-expression character class body, for `[${PYTHON_WHITESPACE_CLASS}]`. */
export const PYTHON_WHITESPACE_CLASS = '\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const WS_RUN = new RegExp(`[${PYTHON_WHITESPACE_CLASS}]+`, 'g');
const WS_ONE = new RegExp(`[${PYTHON_WHITESPACE_CLASS}]`, 'g');

/** `str.strip(chars)`; without `chars`, Python's whitespace. */
export function pythonStrip(text: string, chars: string = PYTHON_WHITESPACE): string {
  return pythonRstrip(pythonLstrip(text, chars), chars);
}

export function pythonLstrip(text: string, chars: string = PYTHON_WHITESPACE): string {
  let start = 0;
  while (start < text.length && chars.includes(text[start])) start++;
  return text.slice(start);
}

export function pythonRstrip(text: string, chars: string = PYTHON_WHITESPACE): string {
  let end = text.length;
  while (end > 0 && chars.includes(text[end - 1])) end--;
  return text.slice(0, end);
}

/** `str.split()` without arguments: split on whitespace runs, no empty items. */
export function pythonSplitWhitespace(text: string): string[] {
  return pythonStrip(text).split(WS_RUN).filter((part) => part !== '');
}

/** How Python orders two strings: by code point (JavaScript's default compares UTF-16 units). */
export function compareCodePoints(a: string, b: string): number {
  const x = Array.from(a);
  const y = Array.from(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i].codePointAt(0)! - y[i].codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/** Python's `sorted()` on strings. */
export function pythonSorted(items: readonly string[]): string[] {
  return [...items].sort(compareCodePoints);
}

/** `re.sub(r'\s+', ' ', s)` */
export function pythonCollapseWhitespace(s: string): string {
  return s.replace(WS_RUN, ' ');
}

/** `re.split(r'\s', s)`: every single whitespace character separates, empty strings kept. */
export function pythonSplitEachWhitespace(s: string): string[] {
  return s.split(WS_ONE);
}

// Characters Python's str.isdigit() accepts beyond Unicode Nd: Numeric_Type=Digit (superscripts, circled digits, …).
const EXTRA_DIGITS =
  '\\u00b2\\u00b3\\u00b9\\u1369-\\u1371\\u19da\\u2070\\u2074-\\u2079\\u2080-\\u2089\\u2460-\\u2468\\u2474-\\u247c' +
  '\\u2488-\\u2490\\u24ea\\u24f5-\\u24fd\\u24ff\\u2776-\\u277e\\u2780-\\u2788\\u278a-\\u2792\\u{10a40}-\\u{10a43}' +
  '\\u{1f100}-\\u{1f10a}';
const DIGIT = new RegExp(`[\\p{Nd}${EXTRA_DIGITS}]`, 'u');

/** `any(ch.isdigit() for ch in s)` */
export function pythonHasDigit(s: string): boolean {
  return DIGIT.test(s);
}

/** `str.expandtabs(size)`: the column resets after "\n" and "\r". */
export function pythonExpandTabs(line: string, size: number): string {
  let out = '';
  let column = 0;
  for (const ch of line) {
    if (ch === '\t') {
      const pad = size - (column % size);
      out += ' '.repeat(pad);
      column += pad;
    } else {
      out += ch;
      column = ch === '\n' || ch === '\r' ? 0 : column + 1;
    }
  }
  return out;
}
