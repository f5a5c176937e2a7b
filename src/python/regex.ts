// Python's `re` as JavaScript RegExps: `(?P<name>…)`, `\Z`, `\A`, inline and named flags, `re.search` semantics,
// and `$` before a line's final "\n".

/** Python `re` syntax and flags (`re.I.M`) as a JS RegExp; `re.search` semantics (match anywhere). */
export function pythonRegex(pattern: string, flags: string[] = []): RegExp {
  // Python's leading inline flags, `(?i)` and the like, become flags: JavaScript has no such group.
  const inline = /^\(\?([aiLmsux]+)\)/.exec(pattern);
  if (inline) {
    const named: Record<string, string> = { i: 'I', m: 'M', s: 'S' };
    flags = [...flags, ...[...inline[1]].map((f) => named[f]).filter(Boolean)];
    pattern = pattern.slice(inline[0].length);
  }
  const source = pattern.replace(/\(\?P</g, '(?<').replace(/\(\?P=(\w+)\)/g, '\\k<$1>').replace(/\\Z/g, '$(?![\\s\\S])').replace(/\\A/g, '^');
  const js = new Set<string>(['u']);
  for (const flag of flags) {
    if (flag === 'I' || flag === 'IGNORECASE') js.add('i');
    if (flag === 'M' || flag === 'MULTILINE') js.add('m');
    if (flag === 'S' || flag === 'DOTALL') js.add('s');
  }
  try {
    return new RegExp(source, [...js].join(''));
  } catch {
    return new RegExp(source, [...js].filter((f) => f !== 'u').join(''));
  }
}

/**
 * `re.search(pattern, line)` where `line` still ends in "\n" (iterating a file): Python's `$` also matches just before
 * a final newline, JavaScript's does not, so a pattern with `$` is tried on the line without it too.
 */
export function searchLine(pattern: RegExp, line: string): boolean {
  if (pattern.test(line)) return true;
  return line.endsWith('\n') && pattern.source.includes('$') && pattern.test(line.slice(0, -1));
}
