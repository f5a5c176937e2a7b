// "Did you mean …?" for unknown registry names (metrics, setup steps).

/**
 * Known names near `name`, closest first: a small edit distance (a third of the name, at least 2), or one name
 * containing the other.
 */
export function closeNames(name: string, known: readonly string[], max = 5): string[] {
  const wanted = name.toLowerCase();
  const limit = Math.max(2, Math.floor(name.length / 3));
  return known
    .map((candidate) => ({ candidate, distance: editDistance(wanted, candidate.toLowerCase()) }))
    .filter(({ candidate, distance }) => distance <= limit || candidate.toLowerCase().includes(wanted) || wanted.includes(candidate.toLowerCase()))
    .sort((a, b) => a.distance - b.distance || a.candidate.localeCompare(b.candidate))
    .slice(0, max)
    .map(({ candidate }) => candidate);
}

/** Levenshtein distance (insert, delete, substitute all cost 1). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}
