// FastDTW as the Python `fastdtw` package (0.3.4) computes it in its pure-Python module, fastdtw/fastdtw.py — the
// one a modern `pip install fastdtw` ends up with: the package ships no wheels and its setup.py falls back to pure
// Python when its C++ extension cannot be built (pip's isolated build has no numpy). The compiled variant breaks ties
// the other way and bounds the window's odd last row differently, so its paths can differ.
//
//   fastdtw(x, y, radius): if either series is shorter than radius + 2, plain DTW; otherwise halve both (means of
//   consecutive pairs, an odd last element dropped), solve recursively, widen the coarse path by `radius` cells in
//   every direction, project each coarse cell onto its 2×2 fine cells, and run DTW inside that window.
//   DTW: D(i, j) = d(x_i, y_j) + min(D(i−1, j), D(i, j−1), D(i−1, j−1)), each sum compared as Python's min() does
//   (the first of equal candidates wins, in that order), then the path is traced back from the last cell.
import { InternalError, MalformedInputError } from '../../../errors.ts';

/** A series of `length` vectors of `dim` numbers, row-major. */
export interface Series {
  length: number;
  dim: number;
  data: Float64Array;
}

/** The distance between row i of a and row j of b. */
export type Distance = (a: Series, i: number, b: Series, j: number) => number;

export interface DtwResult {
  distance: number;
  /** Aligned index pairs [i, j], from [0, 0] to [len(x) − 1, len(y) − 1]. */
  path: Array<[number, number]>;
}

/** A window: for each row i of x, the contiguous columns lo[i]..hi[i] of y that DTW may visit. */
interface Window {
  lo: Int32Array;
  hi: Int32Array;
}

/** Builds a series from numbers (1-D) or equal-length vectors. */
export function series(values: ArrayLike<number> | ArrayLike<ArrayLike<number>>): Series {
  const rows = Array.from(values as ArrayLike<number | ArrayLike<number>>);
  if (rows.length && typeof rows[0] !== 'number') {
    const dim = (rows[0] as ArrayLike<number>).length;
    const data = new Float64Array(rows.length * dim);
    rows.forEach((row, i) => {
      const v = row as ArrayLike<number>;
      if (v.length !== dim) throw new InternalError(`fastdtw: row ${i} has ${v.length} values, expected ${dim}`);
      for (let k = 0; k < dim; k++) data[i * dim + k] = v[k];
    });
    return { length: rows.length, dim, data };
  }
  return { length: rows.length, dim: 1, data: Float64Array.from(rows as number[]) };
}

/** fastdtw's default for 1-D input: |x_i − y_j| (for vectors it would be the L1 norm). */
export const absoluteDifference: Distance = (a, i, b, j) => {
  let sum = 0;
  for (let k = 0; k < a.dim; k++) sum += Math.abs(a.data[i * a.dim + k] - b.data[j * b.dim + k]);
  return sum;
};

/**
 * scipy.spatial.distance.cosine(u, v) = 1 − u·v / sqrt((u·u)(v·v)), clipped to [0, 2] against rounding (as scipy's
 * correlation() does, checked in 1.17); a zero vector gives NaN, as in scipy (0/0, which np.clip keeps).
 */
export const cosineDistance: Distance = (a, i, b, j) => {
  let uv = 0;
  let uu = 0;
  let vv = 0;
  const oa = i * a.dim;
  const ob = j * b.dim;
  for (let k = 0; k < a.dim; k++) {
    const u = a.data[oa + k];
    const v = b.data[ob + k];
    uv += u * v;
    uu += u * u;
    vv += v * v;
  }
  const d = 1 - uv / Math.sqrt(uu * vv);
  return d < 0 ? 0 : Math.min(d, 2);
};

/** Means of consecutive pairs of rows; an odd last row is dropped. */
export function reduceByHalf(s: Series): Series {
  const length = Math.floor(s.length / 2);
  const data = new Float64Array(length * s.dim);
  for (let i = 0; i < length; i++) {
    const a = 2 * i * s.dim;
    const b = a + s.dim;
    for (let k = 0; k < s.dim; k++) data[i * s.dim + k] = (s.data[a + k] + s.data[b + k]) / 2;
  }
  return { length, dim: s.dim, data };
}

/**
 * fastdtw's __expand_window: the coarse path widened by `radius` in both directions, each coarse cell projected to
 * its four fine cells, clipped to the fine grid. Row by row this is one contiguous run of columns whose bounds never
 * decrease, which is what the Python code's row scan collects.
 */
export function expandWindow(path: Array<[number, number]>, lenX: number, lenY: number, radius: number): Window {
  const lastRow = path[path.length - 1][0];
  // Each coarse row the path visits, with its lowest and highest column (the path moves by unit steps).
  const pathLo = new Int32Array(lastRow + 1).fill(0x7fffffff);
  const pathHi = new Int32Array(lastRow + 1).fill(-1);
  for (const [i, j] of path) {
    if (j < pathLo[i]) pathLo[i] = j;
    if (j > pathHi[i]) pathHi[i] = j;
  }
  const lo = new Int32Array(lenX);
  const hi = new Int32Array(lenX);
  for (let row = 0; row < lenX; row++) {
    const coarse = row >> 1;
    if (coarse > lastRow + radius) throw new InternalError(`fastdtw: row ${row} has no cell in the window (radius ${radius})`);
    const nearLo = pathLo[Math.max(0, coarse - radius)] - radius;
    const nearHi = pathHi[Math.min(lastRow, coarse + radius)] + radius;
    lo[row] = Math.max(0, 2 * nearLo);
    hi[row] = Math.min(lenY - 1, 2 * nearHi + 1);
    if (lo[row] > hi[row]) throw new InternalError(`fastdtw: row ${row} has no cell in the window (radius ${radius})`);
  }
  return { lo, hi };
}

/** DTW restricted to a window (every cell when none is given), with the Python module's tie-breaking. */
export function dtw(x: Series, y: Series, dist: Distance, window?: Window): DtwResult {
  const lenX = x.length;
  const lenY = y.length;
  if (!lenX || !lenY) throw new MalformedInputError('fastdtw: cannot align an empty series');
  const lo = window?.lo ?? new Int32Array(lenX);
  const hi = window?.hi ?? new Int32Array(lenX).fill(lenY - 1);
  const offset = new Int32Array(lenX + 1);
  for (let i = 0; i < lenX; i++) offset[i + 1] = offset[i] + (hi[i] - lo[i] + 1);
  const cost = new Float64Array(offset[lenX]);
  // 0: from (i−1, j), 1: from (i, j−1), 2: from (i−1, j−1); the start cell's "diagonal" is the origin.
  const from = new Uint8Array(offset[lenX]);
  const at = (i: number, j: number): number => {
    if (i < 0 || j < 0) return i === -1 && j === -1 ? 0 : Infinity;
    return j >= lo[i] && j <= hi[i] ? cost[offset[i] + j - lo[i]] : Infinity;
  };
  for (let i = 0; i < lenX; i++) {
    for (let j = lo[i]; j <= hi[i]; j++) {
      const d = dist(x, i, y, j);
      let best = at(i - 1, j) + d;
      let move = 0;
      const left = at(i, j - 1) + d;
      if (left < best) {
        best = left;
        move = 1;
      }
      const diagonal = at(i - 1, j - 1) + d;
      if (diagonal < best) {
        best = diagonal;
        move = 2;
      }
      const cell = offset[i] + j - lo[i];
      cost[cell] = best;
      from[cell] = move;
    }
  }
  const path: Array<[number, number]> = [];
  let i = lenX - 1;
  let j = lenY - 1;
  while (i >= 0 && j >= 0) {
    if (j < lo[i] || j > hi[i]) throw new InternalError(`fastdtw: the path left the window at (${i}, ${j})`);
    path.push([i, j]);
    const move = from[offset[i] + j - lo[i]];
    if (move !== 1) i--;
    if (move !== 0) j--;
  }
  if (i !== -1 || j !== -1) throw new InternalError(`fastdtw: the path ended at (${i}, ${j}) instead of the origin`);
  path.reverse();
  return { distance: at(lenX - 1, lenY - 1), path };
}

/** fastdtw.fastdtw(x, y, radius=1, dist): the approximate DTW distance and its warp path. */
export function fastdtw(x: Series, y: Series, dist: Distance = absoluteDifference, radius = 1): DtwResult {
  if (x.dim !== y.dim) throw new InternalError('fastdtw: second dimension of x and y must be the same');
  if (x.length < radius + 2 || y.length < radius + 2) return dtw(x, y, dist);
  const coarse = fastdtw(reduceByHalf(x), reduceByHalf(y), dist, radius);
  return dtw(x, y, dist, expandWindow(coarse.path, x.length, y.length, radius));
}
