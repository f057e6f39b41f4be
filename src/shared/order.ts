/**
 * Orderings done in code rather than SQL: PostgreSQL sorts text by its locale and SQLite by
 * bytes, and lists must come out the same on both.
 */
export const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * A comparison of strings by a folded form first, then exactly (so the order is total), both by
 * code units. It carries its `fold`, so a sort can fold each string once instead of twice per
 * comparison (a sort makes ~n·log n comparisons; what it saves: bench/README.md).
 */
export interface FoldedOrder {
  (a: string, b: string): number;
  fold(text: string): string;
}

export function foldedFirst(fold: (text: string) => string): FoldedOrder {
  const compare = (a: string, b: string): number => byCodeUnits(fold(a), fold(b)) || byCodeUnits(a, b);
  return Object.assign(compare, { fold });
}

/** Names as people read them: case-insensitive first, then exact, so the order is total. */
export const byName = foldedFirst((name) => name.toLowerCase());
