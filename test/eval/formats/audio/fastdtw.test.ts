import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  absoluteDifference,
  cosineDistance,
  dtw,
  expandWindow,
  fastdtw,
  reduceByHalf,
  series,
} from '../../../../src/eval/formats/audio/fastdtw.ts';

const expected = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', '..', '..', 'fixtures', 'audio', 'expected.json'), 'utf8'));

interface DtwCase {
  x: number[][];
  y: number[][];
  dist: 'absolute' | 'cosine';
  distance: number;
  path: number[][];
}
const dtwCases: Array<[number, number, number, string, DtwCase]> = (expected.dtw as DtwCase[]).map((c, i) => [i, c.x.length, c.y.length, c.dist, c]);

describe('fastdtw', () => {
  test("the package's docstring example: distance 2 along (0,0) (1,0) (2,1) (3,2) (4,2)", () => {
    // The coarse path, widened, covers the whole 5×3 grid. Cumulative costs (|x − y|, ties to up, left, diagonal):
    //   x=1: 1 3 6 / x=2: 1 2 4 / x=3: 2 1 2 / x=4: 4 2 1 / x=5: 7 4 2 — traced back up, diagonal, diagonal, up.
    const { distance, path } = fastdtw(series([1, 2, 3, 4, 5]), series([2, 3, 4]));
    expect(distance).toBe(2);
    expect(path).toEqual([[0, 0], [1, 0], [2, 1], [3, 2], [4, 2]]);
  });

  test('ties go to (i−1, j), then (i, j−1), then the diagonal, as the pure-Python module decides', () => {
    // Every cost is 0: cell (1,1) takes its first candidate, (0,1), which came from (0,0) on its left. The compiled
    // variant would take the diagonal and return a path of 2.
    expect(dtw(series([0, 0]), series([0, 0]), absoluteDifference)).toEqual({ distance: 0, path: [[0, 0], [0, 1], [1, 1]] });
    expect(fastdtw(series([5, 5, 5]), series([5])).path).toEqual([[0, 0], [1, 0], [2, 0]]);
  });

  test('plain DTW when a series is shorter than radius + 2, including a single element', () => {
    expect(fastdtw(series([3]), series([1, 4, 3]))).toEqual({ distance: 3, path: [[0, 0], [0, 1], [0, 2]] });
  });

  test('reduce_by_half averages pairs and drops an odd last row', () => {
    const halved = reduceByHalf(series([[1, 10], [3, 20], [5, 30], [7, 40], [9, 50]]));
    expect(halved.length).toBe(2);
    expect(Array.from(halved.data)).toEqual([2, 15, 6, 35]);
  });

  test('expand_window: the coarse path widened by the radius, doubled, clipped, one run per row', () => {
    // Diagonal coarse path of 5 on a 10×10 grid, radius 1: coarse row a spans columns 2·(a−2) … 2·(a+2)+1.
    const { lo, hi } = expandWindow([[0, 0], [1, 1], [2, 2], [3, 3], [4, 4]], 10, 10, 1);
    expect(Array.from(lo)).toEqual([0, 0, 0, 0, 0, 0, 2, 2, 4, 4]);
    expect(Array.from(hi)).toEqual([5, 5, 7, 7, 9, 9, 9, 9, 9, 9]);
    // An odd fine length: the last row comes from the coarse row past the path (radius 1 reaches it).
    const odd = expandWindow([[0, 0], [1, 1]], 5, 5, 1);
    expect([odd.lo[4], odd.hi[4]]).toEqual([0, 4]);
  });

  test('scipy cosine distance: 1 − cos, clipped at 0 and 2; a zero vector gives NaN', () => {
    const d = (u: number[], v: number[]) => cosineDistance(series([u]), 0, series([v]), 0);
    expect(d([1, 0], [0, 1])).toBe(1);
    expect(d([1, 2], [-1, -2])).toBe(2);
    expect(d([1, 2], [2, 4])).toBe(0);
    expect(d([3, 4], [4, 3])).toBeCloseTo(1 - 24 / 25, 15);
    expect(d([0, 0], [1, 1])).toBeNaN();
  });

  test.each(dtwCases)(
    'matches a plain Python port of the algorithm (case %i: %i × %i, %s)',
    (_i, _nx, _ny, _dist, { x, y, dist, distance, path }) => {
      const result = fastdtw(series(x), series(y), dist === 'cosine' ? cosineDistance : absoluteDifference);
      expect(result.path).toEqual(path);
      expect(result.distance).toBeCloseTo(distance, 12);
    },
  );

  test('rejects series of different widths', () => {
    expect(() => fastdtw(series([[1, 2]]), series([[1, 2, 3]]))).toThrow('second dimension of x and y must be the same');
  });
});
