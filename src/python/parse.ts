// Python's readers of text, where JavaScript's differ: `int(x)` and `float(s)`, `ast.literal_eval` of what gsettings
// prints, `csv.reader`, `json.load` (NaN and Infinity accepted) and `yaml.safe_load` (YAML 1.1).
import { parse as parseYaml } from 'yaml';
import { pythonStrip } from './str.ts';
import { MalformedInputError } from '../errors.ts';

/** Python's `int(x)` for a JSON value: ints, integral strings (surrounding whitespace allowed); anything else raises. */
export function pythonInt(value: unknown): number {
  if (typeof value === 'number') return Math.trunc(value);
  if (typeof value === 'boolean') return Number(value);
  if (typeof value === 'string' && /^\s*[+-]?\d+(_\d+)*\s*$/.test(value)) return Number(value.replace(/_/g, ''));
  throw new MalformedInputError(`invalid literal for int(): ${JSON.stringify(value)}`);
}

/** Python's `float(str)`: decimal or exponent notation, inf/nan, underscores between digits; undefined if it raises. */
export function pythonFloat(text: string): number | undefined {
  const t = pythonStrip(text).toLowerCase();
  if (/^[+-]?(inf|infinity)$/.test(t)) return t.startsWith('-') ? -Infinity : Infinity;
  if (/^[+-]?nan$/.test(t)) return Number.NaN;
  if (!/^[+-]?((\d(_?\d)*)?\.?\d(_?\d)*|\d(_?\d)*\.)(e[+-]?\d(_?\d)*)?$/.test(t)) return undefined;
  return Number(t.replace(/_/g, ''));
}

/**
 * Python's `eval` restricted to literals (what gsettings prints: `['a.desktop', 'b.desktop']`): strings, numbers,
 * True/False/None, lists and tuples. Anything else (such as gsettings' `@as []`) raises, as eval would.
 */
export function parsePythonLiteral(source: string): unknown {
  let i = 0;
  const s = source;
  const space = () => {
    while (i < s.length && /\s/.test(s[i])) i++;
  };
  const fail = (): never => {
    throw new SyntaxError(`not a Python literal at ${i}: ${JSON.stringify(s.slice(0, 80))}`);
  };
  const value = (): unknown => {
    space();
    const c = s[i];
    if (c === '[' || c === '(') {
      const close = c === '[' ? ']' : ')';
      i++;
      const items: unknown[] = [];
      space();
      while (s[i] !== close) {
        items.push(value());
        space();
        if (s[i] === ',') i++;
        else if (s[i] !== close) fail();
        space();
      }
      i++;
      return items;
    }
    if (c === "'" || c === '"') {
      i++;
      let out = '';
      while (i < s.length && s[i] !== c) {
        if (s[i] === '\\') {
          const e = s[++i];
          out += ({ n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"' } as Record<string, string>)[e] ?? `\\${e}`;
          i++;
        } else out += s[i++];
      }
      if (s[i] !== c) fail();
      i++;
      return out;
    }
    const word = /^(True|False|None|[+-]?\d+(\.\d*)?([eE][+-]?\d+)?)/.exec(s.slice(i));
    if (!word) return fail();
    i += word[0].length;
    return word[0] === 'True' ? true : word[0] === 'False' ? false : word[0] === 'None' ? null : Number(word[0]);
  };
  const result = value();
  space();
  if (i !== s.length) fail();
  return result;
}

/**
 * Python's `csv.reader` with the default excel dialect (`,`, `"`, doubled quotes, non-strict): a quote inside an
 * unquoted field is literal, text after a closing quote is appended, blank lines give empty rows.
 */
export function parsePythonCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let fieldText = '';
  let state: 'start' | 'unquoted' | 'quoted' | 'quote-in-quoted' = 'start';
  const endRow = () => {
    if (state !== 'start' || row.length > 0) row.push(fieldText);
    rows.push(row);
    row = [];
    fieldText = '';
    state = 'start';
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (state === 'quoted') {
      if (ch === '"') state = 'quote-in-quoted';
      else fieldText += ch;
      continue;
    }
    if (state === 'quote-in-quoted' && ch === '"') {
      fieldText += '"';
      state = 'quoted';
      continue;
    }
    if (ch === ',') {
      row.push(fieldText);
      fieldText = '';
      state = 'start'; // the next field starts fresh: only its first character may open a quote
      continue;
    }
    if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      endRow();
      continue;
    }
    if (state === 'start' && ch === '"') {
      state = 'quoted';
      continue;
    }
    fieldText += ch;
    state = 'unquoted';
  }
  if (state === 'quoted') throw new MalformedInputError('unexpected end of data in a quoted CSV field');
  if (state !== 'start' || row.length > 0) endRow();
  return rows;
}

/** `json.load`: NaN and ±Infinity are accepted as Python accepts them. */
export function parsePythonJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    if (!/\b(NaN|Infinity)\b/.test(text)) throw error;
    const marked = text.replace(/("(?:[^"\\]|\\.)*")|-?Infinity|NaN/g, (m, str) => (str ? str : `{"__py_number__":"${m}"}`));
    return JSON.parse(marked, (_k, v) => (v && typeof v === 'object' && '__py_number__' in v ? Number(v.__py_number__) : v));
  }
}

/** `yaml.safe_load`: YAML 1.1, so yes/no/on/off are booleans as in PyYAML. */
export function parsePythonYaml(text: string): unknown {
  return parseYaml(text, { version: '1.1' });
}
