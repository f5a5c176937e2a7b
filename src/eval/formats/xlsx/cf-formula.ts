// Conditional-format formulas, evaluated the way OSWorld does with the `formulas` package: the formula is compiled,
// its references are the function's inputs (in order of first appearance, `$` ignored), and it is called with the
// tested cell's value followed by the values of every absolute reference (`$A$1`, `$A$1:$B$2`) found in the text.
// Excel semantics: text compares case-insensitively and sorts after numbers; booleans after text.
// Supported: literals, references, & + - * / ^ % and comparisons, and the common logical, text and math functions.
import { InternalError, MalformedInputError } from '../../../errors.ts';

export type XlValue = number | string | boolean | null | XlError | XlValue[];

export class XlError {
  readonly code: string;
  constructor(code: string) {
    this.code = code;
  }
}

type Node =
  | { k: 'lit'; v: XlValue }
  | { k: 'ref'; name: string }
  | { k: 'un'; op: string; a: Node }
  | { k: 'bin'; op: string; a: Node; b: Node }
  | { k: 'call'; fn: string; args: Node[] };

export interface CompiledFormula {
  /** Input names (references without `$`, upper case) in order of first appearance. */
  inputs: string[];
  evaluate(values: Map<string, XlValue>): XlValue;
}

const TOKEN = /\s*(?:("(?:[^"]|"")*")|(\$?[A-Za-z]{1,3}\$?\d+(?::\$?[A-Za-z]{1,3}\$?\d+)?)(?![\w(])|(\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+)|([A-Za-z_][\w.]*)\s*\(|(TRUE|FALSE)\b|(<>|<=|>=|[-+*/^&=<>%(),;]))/iy;

function tokenize(text: string): string[][] {
  const tokens: string[][] = [];
  TOKEN.lastIndex = 0;
  let position = 0;
  while (position < text.length) {
    if (/^\s*$/.test(text.slice(position))) break;
    TOKEN.lastIndex = position;
    const m = TOKEN.exec(text);
    if (!m) throw new MalformedInputError(`cannot parse formula at "${text.slice(position)}"`);
    position = TOKEN.lastIndex;
    if (m[1] !== undefined) tokens.push(['str', m[1].slice(1, -1).replace(/""/g, '"')]);
    else if (m[2] !== undefined) tokens.push(['ref', m[2].replace(/\$/g, '').toUpperCase()]);
    else if (m[3] !== undefined) tokens.push(['num', m[3]]);
    else if (m[4] !== undefined) tokens.push(['fn', m[4].toUpperCase()]);
    else if (m[5] !== undefined) tokens.push(['bool', m[5].toUpperCase()]);
    else tokens.push(['op', m[6] === ';' ? ',' : m[6]]);
  }
  return tokens;
}

const BINARY: Record<string, number> = { '=': 1, '<>': 1, '<': 1, '>': 1, '<=': 1, '>=': 1, '&': 2, '+': 3, '-': 3, '*': 4, '/': 4, '^': 5 };

export function compileFormula(text: string): CompiledFormula {
  const tokens = tokenize(text.replace(/^=/, ''));
  let i = 0;
  const inputs: string[] = [];
  const peek = () => tokens[i];
  const expect = (op: string) => {
    if (peek()?.[0] !== 'op' || peek()[1] !== op) throw new MalformedInputError(`formula "${text}": expected "${op}"`);
    i++;
  };
  const primary = (): Node => {
    const token = tokens[i++];
    if (!token) throw new MalformedInputError(`formula "${text}" ends early`);
    const [kind, value] = token;
    if (kind === 'num') return postfix({ k: 'lit', v: Number(value) });
    if (kind === 'str') return postfix({ k: 'lit', v: value });
    if (kind === 'bool') return postfix({ k: 'lit', v: value === 'TRUE' });
    if (kind === 'ref') {
      if (!inputs.includes(value)) inputs.push(value);
      return postfix({ k: 'ref', name: value });
    }
    if (kind === 'fn') {
      const args: Node[] = [];
      if (!(peek()?.[0] === 'op' && peek()[1] === ')')) {
        for (;;) {
          args.push(expression(0));
          if (peek()?.[0] === 'op' && peek()[1] === ',') i++;
          else break;
        }
      }
      expect(')');
      if (!(value in FUNCTIONS)) throw new MalformedInputError(`formula "${text}": function ${value} is not supported`);
      return postfix({ k: 'call', fn: value, args });
    }
    if (value === '(') {
      const inner = expression(0);
      expect(')');
      return postfix(inner);
    }
    if (value === '-' || value === '+') return { k: 'un', op: value, a: expression(6) };
    throw new MalformedInputError(`formula "${text}": unexpected "${value}"`);
  };
  const postfix = (node: Node): Node => {
    while (peek()?.[0] === 'op' && peek()[1] === '%') {
      i++;
      node = { k: 'un', op: '%', a: node };
    }
    return node;
  };
  const expression = (minPrecedence: number): Node => {
    let left = primary();
    for (;;) {
      const token = peek();
      const precedence = token?.[0] === 'op' ? BINARY[token[1]] : undefined;
      if (precedence === undefined || precedence < minPrecedence) return left;
      i++;
      const right = expression(token[1] === '^' ? precedence : precedence + 1);
      left = { k: 'bin', op: token[1], a: left, b: right };
    }
  };
  const root = expression(0);
  if (i < tokens.length) throw new MalformedInputError(`formula "${text}": unexpected "${tokens[i][1]}"`);
  return { inputs, evaluate: (values) => evaluate(root, values) };
}

const VALUE_ERROR = new XlError('#VALUE!');

function scalar(value: XlValue): XlValue {
  return Array.isArray(value) ? (value.length ? scalar(value[0]) : null) : value;
}

function toNumber(input: XlValue): number | XlError {
  const value = scalar(input) as Exclude<XlValue, XlValue[]>;
  if (value instanceof XlError) return value;
  if (value === null) return 0;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number') return value;
  const n = Number(value.trim());
  return value.trim() !== '' && Number.isFinite(n) ? n : VALUE_ERROR;
}

function toText(value: XlValue): string | XlError {
  value = scalar(value);
  if (value instanceof XlError) return value;
  if (value === null) return '';
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  return String(value);
}

function truthy(value: XlValue): boolean | XlError {
  value = scalar(value);
  if (value instanceof XlError) return value;
  if (typeof value === 'string') {
    if (/^true$/i.test(value)) return true;
    if (/^false$/i.test(value)) return false;
    return VALUE_ERROR;
  }
  return Boolean(value);
}

/** Excel ordering: numbers < text (case-insensitive) < booleans; blank is 0 or "". */
function compare(a: XlValue, b: XlValue): number {
  a = scalar(a);
  b = scalar(b);
  if (a === null) a = typeof b === 'string' ? '' : typeof b === 'boolean' ? false : 0;
  if (b === null) b = typeof a === 'string' ? '' : typeof a === 'boolean' ? false : 0;
  const rank = (v: XlValue) => (typeof v === 'number' ? 0 : typeof v === 'string' ? 1 : 2);
  if (rank(a) !== rank(b)) return rank(a) - rank(b);
  if (typeof a === 'string') {
    const x = a.toLowerCase();
    const y = (b as string).toLowerCase();
    return x < y ? -1 : x > y ? 1 : 0;
  }
  return Number(a) - Number(b);
}

function numeric(fn: (...xs: number[]) => number, ...values: XlValue[]): XlValue {
  const xs: number[] = [];
  for (const v of values) {
    const n = toNumber(v);
    if (n instanceof XlError) return n;
    xs.push(n);
  }
  const result = fn(...xs);
  return Number.isFinite(result) ? result : new XlError('#DIV/0!');
}

function flatten(values: XlValue[]): XlValue[] {
  return values.flatMap((v) => (Array.isArray(v) ? flatten(v) : [v]));
}

function search(needle: XlValue, haystack: XlValue, start: XlValue, caseSensitive: boolean): XlValue {
  const n = toText(needle);
  const h = toText(haystack);
  const s = start === undefined ? 1 : toNumber(start);
  if (n instanceof XlError) return n;
  if (h instanceof XlError) return h;
  if (s instanceof XlError) return s;
  const index = caseSensitive ? h.indexOf(n, s - 1) : h.toLowerCase().indexOf(n.toLowerCase(), s - 1);
  return index < 0 ? VALUE_ERROR : index + 1;
}

const FUNCTIONS: Record<string, (args: XlValue[]) => XlValue> = {
  AND: (a) => flatten(a).reduce<XlValue>((acc, v) => (acc instanceof XlError ? acc : ((t) => (t instanceof XlError ? t : Boolean(acc) && t))(truthy(v))), true),
  OR: (a) => flatten(a).reduce<XlValue>((acc, v) => (acc instanceof XlError ? acc : ((t) => (t instanceof XlError ? t : Boolean(acc) || t))(truthy(v))), false),
  NOT: ([a]) => ((t) => (t instanceof XlError ? t : !t))(truthy(a)),
  IF: ([c, a = true, b = false]) => ((t) => (t instanceof XlError ? t : t ? a : b))(truthy(c)),
  ISERROR: ([a]) => scalar(a) instanceof XlError,
  ISNUMBER: ([a]) => typeof scalar(a) === 'number',
  ISTEXT: ([a]) => typeof scalar(a) === 'string',
  ISBLANK: ([a]) => scalar(a) === null,
  SEARCH: ([n, h, s]) => search(n, h, s, false),
  FIND: ([n, h, s]) => search(n, h, s, true),
  LEFT: ([t, n = 1]) => ((x, k) => (x instanceof XlError ? x : k instanceof XlError ? k : x.slice(0, k)))(toText(t), toNumber(n)),
  RIGHT: ([t, n = 1]) => ((x, k) => (x instanceof XlError ? x : k instanceof XlError ? k : k === 0 ? '' : x.slice(-k)))(toText(t), toNumber(n)),
  MID: ([t, s, n]) => ((x, a, k) => (x instanceof XlError ? x : a instanceof XlError ? a : k instanceof XlError ? k : x.substr(a - 1, k)))(toText(t), toNumber(s), toNumber(n)),
  LEN: ([t]) => ((x) => (x instanceof XlError ? x : Array.from(x).length))(toText(t)),
  LOWER: ([t]) => ((x) => (x instanceof XlError ? x : x.toLowerCase()))(toText(t)),
  UPPER: ([t]) => ((x) => (x instanceof XlError ? x : x.toUpperCase()))(toText(t)),
  TRIM: ([t]) => ((x) => (x instanceof XlError ? x : x.trim().replace(/ +/g, ' ')))(toText(t)),
  EXACT: ([a, b]) => ((x, y) => (x instanceof XlError ? x : y instanceof XlError ? y : x === y))(toText(a), toText(b)),
  VALUE: ([a]) => toNumber(a),
  ABS: ([a]) => numeric(Math.abs, a),
  INT: ([a]) => numeric(Math.floor, a),
  MOD: ([a, b]) => numeric((x, y) => (y === 0 ? Number.NaN : x - y * Math.floor(x / y)), a, b),
  ROUND: ([a, d = 0]) => numeric((x, k) => Math.round(x * 10 ** k) / 10 ** k, a, d),
  SUM: (a) => flatten(a).reduce<number>((s, v) => s + (typeof v === 'number' ? v : 0), 0),
  COUNT: (a) => flatten(a).filter((v) => typeof v === 'number').length,
  MIN: (a) => ((xs) => (xs.length ? Math.min(...xs) : 0))(flatten(a).filter((v): v is number => typeof v === 'number')),
  MAX: (a) => ((xs) => (xs.length ? Math.max(...xs) : 0))(flatten(a).filter((v): v is number => typeof v === 'number')),
  AVERAGE: (a) => ((xs) => (xs.length ? xs.reduce((s, v) => s + v, 0) / xs.length : new XlError('#DIV/0!')))(flatten(a).filter((v): v is number => typeof v === 'number')),
};

function evaluate(node: Node, values: Map<string, XlValue>): XlValue {
  switch (node.k) {
    case 'lit':
      return node.v;
    case 'ref':
      return values.get(node.name) ?? null;
    case 'un': {
      if (node.op === '%') return numeric((x) => x / 100, evaluate(node.a, values));
      return numeric((x) => (node.op === '-' ? -x : x), evaluate(node.a, values));
    }
    case 'call':
      return FUNCTIONS[node.fn](node.args.map((a) => evaluate(a, values)));
    case 'bin': {
      const a = scalar(evaluate(node.a, values));
      const b = scalar(evaluate(node.b, values));
      if (a instanceof XlError) return a;
      if (b instanceof XlError) return b;
      switch (node.op) {
        case '=': return compare(a, b) === 0;
        case '<>': return compare(a, b) !== 0;
        case '<': return compare(a, b) < 0;
        case '>': return compare(a, b) > 0;
        case '<=': return compare(a, b) <= 0;
        case '>=': return compare(a, b) >= 0;
        case '&': return `${toText(a)}${toText(b)}`;
        case '+': return numeric((x, y) => x + y, a, b);
        case '-': return numeric((x, y) => x - y, a, b);
        case '*': return numeric((x, y) => x * y, a, b);
        case '/': return numeric((x, y) => x / y, a, b);
        case '^': return numeric((x, y) => x ** y, a, b);
      }
    }
  }
  throw new InternalError('unreachable');
}

/** OSWorld's `_absolute_range_pattern.findall(formula)`: every `$A$1` or `$A$1:$B$2` in the text, in order. */
export function absoluteRanges(formula: string): { from: string; to?: string }[] {
  return Array.from(formula.matchAll(/\$([A-Z]{1,3})\$(\d+)(?::\$([A-Z]{1,3})\$(\d+))?/g), (m) => ({
    from: `${m[1]}${m[2]}`,
    to: m[3] ? `${m[3]}${m[4]}` : undefined,
  }));
}
