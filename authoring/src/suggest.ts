/**
 * "Did you mean …?": the closest known name to a misspelt one, by edit distance. Only close
 * names are offered, so a suggestion is a likely fix and never a guess among unrelated words.
 */

/** Damerau–Levenshtein distance (optimal string alignment): a swapped pair of letters costs 1. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The known name closest to `name`, when it is close enough to be a typo: at most a third of
 * the longer name's letters differ (at least one edit allowed), compared case-insensitively.
 */
export function closest(name: string, known: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of known) {
    if (candidate === name) continue;
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
    const allowed = Math.max(1, Math.floor(Math.max(name.length, candidate.length) / 3));
    if (distance <= allowed && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/**
 * `message` with `; did you mean "x"?` appended when a known name is close to `name`, and the
 * name as the diagnostic's `expected` value: spread the result into a diagnostic.
 */
export function suggesting(
  message: string,
  name: string,
  known: Iterable<string>,
): { message: string; expected?: string[] } {
  const match = closest(name, known);
  return match === undefined ? { message } : { message: `${message}; did you mean "${match}"?`, expected: [match] };
}
