import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Knex } from 'knex';
import { from as copyFrom } from 'pg-copy-streams';
import { isPostgres } from './connect.js';
import type { Executor } from './unit-of-work.js';

/** A bulk-written table's columns with their PostgreSQL types (SQLite sends `double precision` in two parts). */
export type BulkColumns = Readonly<Record<string, string>>;

/**
 * Inserts rows, a few thousand at a time (their text is held whole), without a query builder per
 * row, in two steps: the rows are encoded now and written when the returned function is called,
 * so a writer that pipelines batches encodes the next one while the database is still storing
 * the one before, instead of leaving it idle while the text is built.
 *
 * PostgreSQL: COPY … FROM STDIN in its text format, on the transaction's connection. SQLite: one
 * statement whose text depends only on the table, so the connection keeps it prepared
 * (src/db/sqlite/statement-cache.ts), with the rows as one JSON parameter unpacked by json_each,
 * each row an array. Ingest on SQLite is bound by the main thread, and one string crosses to the
 * driver where a VALUES list bound each value on its own (with knex formatting thousands of
 * placeholders); the parsing is SQLite's, off the main thread.
 */
export function prepareInsert(trx: Executor, table: string, columns: BulkColumns, rows: object[]): () => Promise<void> {
  if (rows.length === 0) return async () => {};
  const names = Object.keys(columns);
  const target = `${table} (${names.map((n) => `"${n}"`).join(', ')})`;
  if (isPostgres(trx)) {
    const text = copyText(names, rows);
    return () => copyRows(trx, target, text);
  }
  const doubles = names.map((n) => columns[n] === 'double precision');
  const fields: string[] = [];
  let at = 0;
  for (const double of doubles) {
    fields.push(double ? `(value ->> ${at}) * power(2, value ->> ${at + 1})` : `value ->> ${at}`);
    at += double ? 2 : 1;
  }
  // Each tuple is filled in place: a flatMap made an array per value.
  const tuples = rows.map((row) => {
    const tuple: unknown[] = [];
    names.forEach((name, i) => {
      const value = (row as Record<string, unknown>)[name];
      if (!doubles[i]) tuple.push(value);
      else {
        const [significand, exponent] = binaryParts(value as number | null);
        tuple.push(significand, exponent);
      }
    });
    return tuple;
  });
  const json = JSON.stringify(tuples);
  return async () => {
    await trx.raw(`insert into ${target} select ${fields.join(', ')} from json_each(?)`, [json]);
  };
}

const float64 = new DataView(new ArrayBuffer(8));

/**
 * A double as an integer and a power of two whose product is exactly it ([null, null] for null).
 * SQLite reads a JSON number to within one unit in the last place (13 of 200,000 random doubles
 * came back 1 ulp off); an integer below 2^53 times `power(2, e)` it computes exactly.
 */
export function binaryParts(value: number | null): [number, number] | [null, null] {
  if (value === null) return [null, null];
  float64.setFloat64(0, value);
  const high = float64.getUint32(0);
  const exponent = (high >>> 20) & 0x7ff;
  const fraction = (high & 0xfffff) * 2 ** 32 + float64.getUint32(4);
  const sign = high >>> 31 ? -1 : 1;
  // Exponent 0: zero and the subnormals, whose fraction has no implicit leading 1.
  return exponent === 0 ? [sign * fraction, -1074] : [sign * (fraction + 2 ** 52), exponent - 1075];
}

/** The rows in COPY's text format: a line per row, its fields separated by tabs. */
function copyText(names: string[], rows: object[]): string {
  let text = '';
  for (const row of rows) {
    text += `${names.map((name) => copyField((row as Record<string, unknown>)[name])).join('\t')}\n`;
  }
  return text;
}

/** COPY's text into `target`, through the connection of `trx` (the transaction's own, when it is one). */
async function copyRows(trx: Executor, target: string, text: string): Promise<void> {
  const client = trx.client as Knex.Client;
  const connection = (await client.acquireConnection()) as { query: (copy: unknown) => NodeJS.WritableStream };
  try {
    await pipeline(Readable.from([text]), connection.query(copyFrom(`copy ${target} from stdin`)));
  } finally {
    await client.releaseConnection(connection);
  }
}

/** A value in COPY's text format: \N for null; backslash, tab, newline and carriage return escaped. */
function copyField(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value !== 'string') return String(value);
  // Nearly no value needs escaping: testing first skips a replace per value.
  return NEEDS_ESCAPE.test(value) ? value.replace(ESCAPED, (c) => COPY_ESCAPES[c]!) : value;
}

const NEEDS_ESCAPE = /[\\\t\n\r]/;
const ESCAPED = /[\\\t\n\r]/g;

const COPY_ESCAPES: Readonly<Record<string, string>> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
