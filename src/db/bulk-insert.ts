import { isPostgres } from './connect.js';
import type { Executor } from './unit-of-work.js';

/** A bulk-written table's columns with their PostgreSQL types; `double precision` also matters on SQLite. */
export type BulkColumns = Readonly<Record<string, string>>;

/**
 * Inserts rows in one statement whose text depends only on the table, so the connection keeps it
 * prepared (src/db/connect.ts) and no query builder runs per row: the rows go as one JSON
 * parameter, unpacked by the database into the columns (PostgreSQL: json_to_recordset with the
 * columns' types; SQLite: json_each, each row an array). Bulk writes are bound by the main thread,
 * and one string crosses to the driver where a VALUES list bound each value on its own (~3.4 µs
 * a usage run, with knex's formatting of 16,000 placeholders); the parsing is the database's,
 * off the main thread. A few thousand rows at a time: the JSON text is held whole.
 */
export async function insertRows(trx: Executor, table: string, columns: BulkColumns, rows: object[]): Promise<void> {
  if (rows.length === 0) return;
  const names = Object.keys(columns);
  const list = names.map((n) => `"${n}"`).join(', ');
  if (isPostgres(trx)) {
    const types = names.map((n) => `"${n}" ${columns[n]}`).join(', ');
    await trx.raw(`insert into ${table} (${list}) select ${list} from json_to_recordset(?::json) as r(${types})`, [
      JSON.stringify(rows),
    ]);
    return;
  }
  const doubles = names.map((n) => columns[n] === 'double precision');
  const fields: string[] = [];
  let at = 0;
  for (const double of doubles) {
    fields.push(double ? `(value ->> ${at}) * power(2, value ->> ${at + 1})` : `value ->> ${at}`);
    at += double ? 2 : 1;
  }
  const tuples = rows.map((row) =>
    names.flatMap((name, i) => {
      const value = (row as Record<string, unknown>)[name];
      return doubles[i] ? binaryParts(value as number | null) : [value];
    }),
  );
  await trx.raw(`insert into ${table} (${list}) select ${fields.join(', ')} from json_each(?)`, [
    JSON.stringify(tuples),
  ]);
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
