// A value shown inside an error message ("… must be a string (got 3)"): JSON, cut to 80 characters.
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  try {
    return JSON.stringify(value)?.slice(0, 80) ?? String(value);
  } catch {
    return String(value);
  }
}
