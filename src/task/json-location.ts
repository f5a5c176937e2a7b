// Where a JSON path is in a file's text (line and column, from 1), so an error about `config[1].type` points at that
// line in editors, in `deskbench check` and in vitest's code frame — not at the start of the file.

export interface TextLocation {
  line: number;
  column: number;
}

/**
 * The location of the value at `path` in valid JSON `text`. When the path stops existing part way (a missing field),
 * the location of the deepest value that exists: the object the field is missing from.
 */
export function locateJsonPath(text: string, path: readonly PropertyKey[]): TextLocation {
  let pos = 0;
  const skipSpace = () => {
    while (pos < text.length && /\s/.test(text[pos])) pos++;
  };
  const skipString = () => {
    pos++;
    while (pos < text.length && text[pos] !== '"') pos += text[pos] === '\\' ? 2 : 1;
    pos++;
  };
  const skipValue = () => {
    skipSpace();
    if (text[pos] === '"') return skipString();
    if (text[pos] !== '{' && text[pos] !== '[') {
      while (pos < text.length && !/[\s,\]}]/.test(text[pos])) pos++;
      return;
    }
    let depth = 0;
    do {
      if (text[pos] === '"') {
        skipString();
        continue;
      }
      if (text[pos] === '{' || text[pos] === '[') depth++;
      else if (text[pos] === '}' || text[pos] === ']') depth--;
      pos++;
    } while (depth > 0 && pos < text.length);
  };
  /** Moves to the value of `key` in the object or list at `pos`; false when it is not there. */
  const enter = (key: PropertyKey): boolean => {
    const open = text[pos];
    if (open !== '{' && open !== '[') return false;
    pos++;
    for (let index = 0; ; index++) {
      skipSpace();
      if (pos >= text.length || text[pos] === '}' || text[pos] === ']') return false;
      let matches = index === key;
      if (open === '{') {
        const start = pos;
        skipString();
        matches = JSON.parse(text.slice(start, pos)) === String(key);
        skipSpace();
        pos++; // the colon
        skipSpace();
      }
      if (matches) return true;
      skipValue();
      skipSpace();
      if (text[pos] === ',') pos++;
    }
  };
  skipSpace();
  let found = pos;
  for (const key of path) {
    if (!enter(key)) break;
    found = pos;
  }
  return locationAt(text, found);
}

/** Line and column (from 1) of a character offset. */
export function locationAt(text: string, offset: number): TextLocation {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lines = before.split('\n');
  return { line: lines.length, column: lines[lines.length - 1].length + 1 };
}

/**
 * The offset of the first syntax error in `text` (V8's JSON.parse names the position for some errors only, e.g. not
 * for a `//` comment), or undefined when the text is valid JSON.
 */
export function syntaxErrorOffset(text: string): number | undefined {
  let pos = 0;
  const STOP = Symbol('syntax error at pos');
  const fail = (): never => {
    throw STOP;
  };
  const space = () => {
    while (pos < text.length && ' \t\r\n'.includes(text[pos])) pos++;
  };
  const expect = (char: string) => (text[pos] === char ? pos++ : fail());
  const string = () => {
    expect('"');
    while (text[pos] !== '"') {
      if (pos >= text.length || text.charCodeAt(pos) < 0x20) fail();
      if (text[pos] === '\\') {
        pos++;
        if (text[pos] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(pos + 1, pos + 5))) fail();
          pos += 4;
        } else if (!'"\\/bfnrt'.includes(text[pos] ?? 'x')) fail();
      }
      pos++;
    }
    pos++;
  };
  const value = (): void => {
    space();
    const char = text[pos];
    if (char === '{' || char === '[') {
      const close = char === '{' ? '}' : ']';
      pos++;
      space();
      if (text[pos] === close) return void pos++;
      for (;;) {
        if (char === '{') {
          space();
          string();
          space();
          expect(':');
        }
        value();
        space();
        if (text[pos] === close) return void pos++;
        expect(',');
      }
    }
    if (char === '"') {
      string();
      return;
    }
    const literal = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(pos, pos + 400));
    if (!literal) fail();
    pos += literal![0].length;
  };
  try {
    value();
    space();
    if (pos < text.length) fail();
    return undefined;
  } catch (error) {
    if (error === STOP) return pos;
    throw error;
  }
}
