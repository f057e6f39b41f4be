/** How the cases print their figures: milliseconds, counts and aligned tables. */

/** Milliseconds with as many decimals as the size warrants; `-` for a figure not measured. */
export const ms = (v: number): string =>
  Number.isFinite(v) ? (v < 10 ? v.toFixed(2) : v < 100 ? v.toFixed(1) : v.toFixed(0)) : '-';

/** A count with thousands separators. */
export const int = (n: number): string => n.toLocaleString('en-US');

/** A table as lines: the first `leftColumns` columns aligned left, the others right. */
export function table(header: string[], rows: string[][], leftColumns = 1): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i < leftColumns ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
}
