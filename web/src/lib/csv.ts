/**
 * CSV for spreadsheets (RFC 4180) that a spreadsheet cannot be tricked into running: a text cell
 * beginning with `=`, `+`, `-`, `@`, a tab or a carriage return would be read as a formula
 * (CSV injection, OWASP), so it is prefixed with a single quote and shows as the text it was.
 * Numbers are written as they are, so `-3` stays a number.
 */
export type CsvCell = string | number | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One field: neutralized when it could start a formula, quoted when it holds `"`, `,`, CR or LF. */
export function csvField(cell: CsvCell): string {
  if (cell === null || cell === undefined) return '';
  if (typeof cell === 'number') return Number.isFinite(cell) ? String(cell) : '';
  const text = FORMULA_START.test(cell) ? `'${cell}` : cell;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Records joined by CRLF, as RFC 4180 says, with a final CRLF. */
export function toCsv(records: readonly (readonly CsvCell[])[]): string {
  return records.map((r) => r.map(csvField).join(',')).join('\r\n') + (records.length ? '\r\n' : '');
}

/**
 * Hands `csv` to the browser as a file download. A byte order mark first, so spreadsheet programs
 * read the file as UTF-8 (names with accents or CJK stay intact).
 */
export function downloadCsv(filename: string, csv: string): void {
  const url = URL.createObjectURL(new Blob([`\uFEFF${csv}`], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  // The download has started from the object URL; releasing it later keeps slow browsers safe.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
