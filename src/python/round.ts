// Python's round() and numpy's rint: a half goes to the even neighbour (JavaScript's Math.round takes it up).

/** Python's `round(x)` for a float, numpy's `rint(x)`: round half to even. */
export function roundHalfEven(x: number): number {
  const floor = Math.floor(x);
  const diff = x - floor;
  if (diff > 0.5) return floor + 1;
  if (diff < 0.5) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}
