// Python's shlex.split in POSIX mode (what OSWorld's server applies to a command string sent with shell=false). The
// control server (bundled from server/) splits commands with it; `check` reads task commands with its lenient mode.

/**
 * Splits `input` into words. Strict (the default) throws as Python does on an unclosed quote or a trailing backslash;
 * `{ lenient: true }` never throws: an unclosed quote runs to the end, a trailing backslash stays a backslash.
 */
export function shlexSplit(input: string, { lenient = false }: { lenient?: boolean } = {}): string[] {
  const tokens: string[] = [];
  let token = '';
  let inToken = false;
  let i = 0;
  while (i < input.length) {
    const c = input[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      if (inToken) tokens.push(token);
      token = '';
      inToken = false;
      i++;
    } else if (c === '\\') {
      if (i + 1 >= input.length) {
        if (!lenient) throw new Error('No escaped character');
        token += c;
        inToken = true;
        break;
      }
      token += input[i + 1];
      inToken = true;
      i += 2;
    } else if (c === "'") {
      let end = input.indexOf("'", i + 1);
      if (end < 0) {
        if (!lenient) throw new Error('No closing quotation');
        end = input.length;
      }
      token += input.slice(i + 1, end);
      inToken = true;
      i = end + 1;
    } else if (c === '"') {
      i++;
      inToken = true;
      for (;;) {
        if (i >= input.length) {
          if (!lenient) throw new Error('No closing quotation');
          break;
        }
        const d = input[i];
        if (d === '"') {
          i++;
          break;
        }
        // Inside double quotes a backslash only escapes a double quote or another backslash.
        if (d === '\\' && i + 1 < input.length && (input[i + 1] === '"' || input[i + 1] === '\\')) {
          token += input[i + 1];
          i += 2;
        } else {
          token += d;
          i++;
        }
      }
    } else {
      token += c;
      inToken = true;
      i++;
    }
  }
  if (inToken) tokens.push(token);
  return tokens;
}
