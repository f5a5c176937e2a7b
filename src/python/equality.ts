// Python's `==`, `in`, truthiness and `sorted()` for JSON-like values: 1 == 1.0 == True, lists and dicts compared
// deeply, substring / member / key tests for `in`, `not x` for empty containers, 0, '' and None, and list ordering.

/** Python `==`: numbers compare by value (1 == 1.0, True == 1), lists and dicts deeply. */
export function pythonEquals(a: unknown, b: unknown): boolean {
  if (typeof a === 'boolean') a = Number(a);
  if (typeof b === 'boolean') b = Number(b);
  if (a === b) return true;
  if (a === null || b === null || a === undefined || b === undefined) return a === b;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => pythonEquals(item, b[i]));
  }
  if (typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a as object);
    const kb = Object.keys(b as object);
    return ka.length === kb.length && ka.every((k) => k in (b as object) && pythonEquals((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  return false;
}

/**
 * Python's `item in container`: substring for strings, `==` membership for lists, key membership for dicts.
 * Anything else raises TypeError in Python, so it throws here (the engine scores that 0).
 */
export function pythonIn(item: unknown, container: unknown): boolean {
  if (typeof container === 'string') {
    if (typeof item !== 'string') throw new TypeError(`'in <string>' requires string as left operand, not ${typeName(item)}`);
    return container.includes(item);
  }
  if (Array.isArray(container)) return container.some((element) => pythonEquals(element, item));
  if (container && typeof container === 'object') return typeof item === 'string' && Object.hasOwn(container, item);
  throw new TypeError(`argument of type '${typeName(container)}' is not iterable`);
}

function typeName(value: unknown): string {
  if (value === null || value === undefined) return 'NoneType';
  if (Array.isArray(value)) return 'list';
  if (typeof value === 'object') return 'dict';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (typeof value === 'boolean') return 'bool';
  return 'str';
}

/** Python's truthiness, for `if not result`. */
export function pythonFalsy(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === 0 || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value as object).length === 0;
  return false;
}

/** Python's `sorted(x)` for a list of numbers or of strings; anything else raises, as Python does. */
export function pythonSortedList(value: unknown): unknown[] {
  if (typeof value === 'string') return [...value].sort();
  if (!Array.isArray(value)) throw new TypeError(`'${value === null ? 'NoneType' : typeof value}' object is not iterable`);
  if (value.every((v) => typeof v === 'number' || typeof v === 'boolean')) return [...value].sort((a, b) => Number(a) - Number(b));
  if (value.every((v) => typeof v === 'string')) return [...value].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (value.length <= 1) return [...value];
  throw new TypeError("'<' not supported between the list's items");
}
