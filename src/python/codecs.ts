// Python's codecs where OSWorld's code relies on them: bytes.decode('unicode_escape').

const SIMPLE_ESCAPES: Record<string, string> = {
  '\\': '\\', "'": "'", '"': '"', a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\n': '',
};

/** Python's `text.encode('utf-8').decode('unicode_escape')`, or undefined where Python raises UnicodeDecodeError. */
export function decodeUnicodeEscape(text: string): string | undefined {
  const bytes = Buffer.from(text, 'utf8');
  let out = '';
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (byte !== 0x5c) { out += String.fromCharCode(byte); continue; } // every other byte is read as Latin-1
    if (i + 1 >= bytes.length) return undefined; // "\ at end of string"
    const next = String.fromCharCode(bytes[++i]);
    if (next in SIMPLE_ESCAPES) { out += SIMPLE_ESCAPES[next]; continue; }
    if (next >= '0' && next <= '7') {
      let digits = next;
      while (digits.length < 3 && i + 1 < bytes.length && bytes[i + 1] >= 0x30 && bytes[i + 1] <= 0x37) digits += String.fromCharCode(bytes[++i]);
      out += String.fromCharCode(parseInt(digits, 8));
      continue;
    }
    const width = next === 'x' ? 2 : next === 'u' ? 4 : next === 'U' ? 8 : 0;
    if (width) {
      const digits = bytes.subarray(i + 1, i + 1 + width).toString('latin1');
      if (digits.length < width || !/^[0-9a-fA-F]+$/.test(digits)) return undefined;
      const code = parseInt(digits, 16);
      if (code > 0x10ffff) return undefined;
      out += String.fromCodePoint(code);
      i += width;
      continue;
    }
    if (next === 'N') return undefined; // \N{name} needs Unicode's name table; treated as undecodable
    out += `\\${next}`; // unknown escapes stay as they are
  }
  return out;
}
