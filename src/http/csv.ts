import type { Request, Response } from 'express';
import { drained } from './drained.js';

/** A CSV cell: text is quoted, a number is written as it is, null is an empty field. */
export type CsvCell = string | number | null;

/** A table to answer as CSV: its header and its rows, produced as they are written. */
export interface CsvTable {
  header: readonly string[];
  rows: Iterable<readonly CsvCell[]> | AsyncIterable<readonly CsvCell[]>;
}

/** What an answer becomes as CSV, and the name a browser saves it under. */
export interface CsvExport<Body> {
  filename: string;
  table: (answer: Body) => CsvTable;
}

/** Lines are gathered into chunks of about this many characters before each write. */
const CHUNK_CHARS = 16_384;

/**
 * Characters a spreadsheet reads as the start of a formula (OWASP's "CSV injection" list): a text
 * cell starting with one is written with a leading `'`, which spreadsheets show as text. The
 * fullwidth forms `＝ ＋ － ＠` are in the list because spreadsheets with East Asian input settings
 * fold them to their ASCII forms and start a formula too.
 */
const FORMULA_START = new Set(['=', '+', '-', '@', '\t', '\r', '\uff1d', '\uff0b', '\uff0d', '\uff20']);

/** One RFC 4180 field: text always quoted (inner quotes doubled), numbers bare, null empty. */
export function csvField(cell: CsvCell): string {
  if (cell === null) return '';
  if (typeof cell === 'number') return String(cell);
  const text = FORMULA_START.has(cell.charAt(0)) ? `'${cell}` : cell;
  return `"${text.replace(/"/g, '""')}"`;
}

/** One record with its CRLF. */
export const csvLine = (cells: readonly CsvCell[]): string => `${cells.map(csvField).join(',')}\r\n`;

/**
 * Whether the request asks for CSV: `?format=csv`, or, without `format`, an `Accept` that prefers
 * `text/csv` to JSON (a browser's or a bare client's `*∕*` gets JSON).
 */
export function wantsCsv(req: Request): boolean {
  const format = req.query.format;
  if (format !== undefined) return format === 'csv';
  return req.accepts(['application/json', 'text/csv']) === 'text/csv';
}

/**
 * Streams the table: the header, then the rows as they come, a chunk at a time, waiting for the
 * socket to drain when it is full, so memory holds one chunk whatever the number of rows. A
 * client that goes away stops the writing.
 */
export async function sendCsv(res: Response, filename: string, table: CsvTable): Promise<void> {
  res.set({
    'Content-Type': 'text/csv; charset=utf-8; header=present',
    'Content-Disposition': `attachment; filename="${filename}"`,
  });
  let chunk = csvLine(table.header);
  for await (const row of table.rows) {
    chunk += csvLine(row);
    if (chunk.length >= CHUNK_CHARS) {
      const full = !res.write(chunk);
      chunk = '';
      if (full && !(await drained(res))) return;
    }
  }
  res.end(chunk);
}
