// Python's repr() of a str, in full: the literal Python prints, with its choice of quotes and its escapes of every
// non-printable character. (repr.ts keeps a narrower one, ASCII control characters only, because the control server
// bundles repr.ts and a change there changes the desktop image's hash: join the two with the next image change.)

const NON_PRINTABLE = /^[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]$/u;

/** Python's `repr(str)`: the literal Python would print, quotes chosen the same way, non-printable characters escaped. */
export function pythonStringRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (ch === quote || ch === '\\') out += `\\${ch}`;
    else if (ch === '\t') out += '\\t';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (code < 0x20 || code === 0x7f) out += `\\x${hex(code, 2)}`;
    else if (code < 0x7f || (ch !== ' ' && !NON_PRINTABLE.test(ch))) out += ch;
    else if (code <= 0xff) out += `\\x${hex(code, 2)}`;
    else if (code <= 0xffff) out += `\\u${hex(code, 4)}`;
    else out += `\\U${hex(code, 8)}`;
  }
  return out + quote;
}

function hex(code: number, width: number): string {
  return code.toString(16).padStart(width, '0');
}
