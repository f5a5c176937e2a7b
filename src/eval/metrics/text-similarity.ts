// Text similarity as OSWorld's Python computes it. Shared by text, pdf and docx metrics.

/**
 * rapidfuzz's `fuzz.ratio`: the normalized Indel similarity on a 0–100 scale, `200·LCS / (len1 + len2)` over code
 * points. This is not Levenshtein: a substitution costs two edits. Two empty strings give 100, as rapidfuzz does.
 */
export function fuzzRatio(a: string, b: string): number {
  const s1 = Array.from(a);
  const s2 = Array.from(b);
  const total = s1.length + s2.length;
  if (total === 0) return 100;
  return (200 * longestCommonSubsequence(s1, s2)) / total;
}

/**
 * Length of the longest common subsequence, bit-parallel (Allison–Dix / Hyyrö) in 32-bit words so that page-long
 * texts compare in milliseconds: O(len1·len2/32).
 */
function longestCommonSubsequence(s1: readonly string[], s2: readonly string[]): number {
  if (s1.length === 0 || s2.length === 0) return 0;
  const [pattern, text] = s1.length <= s2.length ? [s1, s2] : [s2, s1];
  const words = Math.ceil(pattern.length / 32);
  const masks = new Map<string, Uint32Array>();
  pattern.forEach((ch, i) => {
    let mask = masks.get(ch);
    if (!mask) masks.set(ch, (mask = new Uint32Array(words)));
    mask[i >>> 5] |= 1 << (i & 31);
  });
  const v = new Uint32Array(words).fill(0xffffffff);
  const lastBits = pattern.length & 31;
  if (lastBits) v[words - 1] = (1 << lastBits) - 1 || 0xffffffff;
  for (const ch of text) {
    const mask = masks.get(ch);
    if (!mask) continue;
    let carry = 0;
    for (let w = 0; w < words; w++) {
      const u = (v[w] & mask[w]) >>> 0;
      const sum = v[w] + u + carry; // V + U with carry across words
      carry = sum > 0xffffffff ? 1 : 0;
      v[w] = ((sum >>> 0) | (v[w] & ~u)) >>> 0; // (V + U) | (V − U); U ⊆ V so V − U = V & ~U
    }
  }
  if (lastBits) v[words - 1] &= (1 << lastBits) - 1;
  let ones = 0;
  for (const word of v) ones += popcount(word);
  return pattern.length - ones;
}

function popcount(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/**
 * Python difflib's `SequenceMatcher(None, a, b).ratio()`: 2·M / (len(a)+len(b)) where M counts the characters (or
 * items) in the matching blocks found by Ratcliff–Obershelp, with difflib's autojunk heuristic (items that occur more
 * than 1% of the time in b, when b has at least 200 items, are junk). Two empty sequences give 1.
 */
export function sequenceMatcherRatio<T>(a: readonly T[] | string, b: readonly T[] | string): number {
  const x = typeof a === 'string' ? Array.from(a) : a;
  const y = typeof b === 'string' ? Array.from(b) : b;
  const total = x.length + y.length;
  if (total === 0) return 1;
  return (2 * matchingCharacters(x as readonly unknown[], y as readonly unknown[])) / total;
}

function matchingCharacters(a: readonly unknown[], b: readonly unknown[]): number {
  // b2j: positions of each item in b, minus popular items (autojunk), as difflib builds it.
  const b2j = new Map<unknown, number[]>();
  b.forEach((item, j) => {
    const list = b2j.get(item);
    if (list) list.push(j);
    else b2j.set(item, [j]);
  });
  if (b.length >= 200) {
    const limit = Math.floor(b.length / 100) + 1;
    for (const [item, list] of b2j) if (list.length > limit) b2j.delete(item);
  }
  const findLongest = (alo: number, ahi: number, blo: number, bhi: number): [number, number, number] => {
    let besti = alo;
    let bestj = blo;
    let bestsize = 0;
    let j2len = new Map<number, number>();
    for (let i = alo; i < ahi; i++) {
      const next = new Map<number, number>();
      for (const j of b2j.get(a[i]) ?? []) {
        if (j < blo) continue;
        if (j >= bhi) break;
        const k = (j2len.get(j - 1) ?? 0) + 1;
        next.set(j, k);
        if (k > bestsize) {
          besti = i - k + 1;
          bestj = j - k + 1;
          bestsize = k;
        }
      }
      j2len = next;
    }
    // Extend over equal neighbours (popular items are not indexed in b2j but still match), as difflib does.
    while (besti > alo && bestj > blo && a[besti - 1] === b[bestj - 1]) {
      besti--;
      bestj--;
      bestsize++;
    }
    while (besti + bestsize < ahi && bestj + bestsize < bhi && a[besti + bestsize] === b[bestj + bestsize]) {
      bestsize++;
    }
    return [besti, bestj, bestsize];
  };
  let matched = 0;
  const queue: [number, number, number, number][] = [[0, a.length, 0, b.length]];
  while (queue.length) {
    const [alo, ahi, blo, bhi] = queue.pop()!;
    const [i, j, k] = findLongest(alo, ahi, blo, bhi);
    if (k === 0) continue;
    matched += k;
    if (alo < i && blo < j) queue.push([alo, i, blo, j]);
    if (i + k < ahi && j + k < bhi) queue.push([i + k, ahi, j + k, bhi]);
  }
  return matched;
}
