/**
 * Orderings done in code rather than SQL: PostgreSQL sorts text by its locale and SQLite by
 * bytes, and lists must come out the same on both.
 */
export const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Names as people read them: case-insensitive first, then exact, so the order is total. */
export const byName = (a: string, b: string): number =>
  byCodeUnits(a.toLowerCase(), b.toLowerCase()) || byCodeUnits(a, b);
