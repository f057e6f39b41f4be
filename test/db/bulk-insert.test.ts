// Bulk inserts as usage ingest writes them: every value arrives as it was, doubles to the bit.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binaryParts, prepareInsert } from '../../src/db/bulk-insert.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.schema.createTable('samples', (t) => {
    t.integer('n').primary();
    t.string('label', 40).nullable();
    t.bigInteger('count').notNullable();
    t.double('amount').nullable();
  });
});
afterAll(() => database.drop());

const COLUMNS = { n: 'integer', label: 'text', count: 'bigint', amount: 'double precision' };
/** Doubles SQLite's own reading of a JSON number returns 1 ulp off. */
const MISREAD = [0.006631974510371601, 4.822659779449953e-8, 2.768655522946672e-7, 0.006073998751703395];
const doubles = fc.oneof(
  fc.double({ min: 0, noNaN: true, noDefaultInfinity: true }),
  fc.double({ min: 0, max: 1, noNaN: true }),
  fc.constantFrom(0, 0.1, 0.30000000000000004, 5e-324, 2.2250738585072014e-308, Number.MAX_VALUE, ...MISREAD),
);

describe('binaryParts', () => {
  it('gives an integer below 2^53 and a power of two whose product is exactly the double', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (value) => {
        const [mantissa, exponent] = binaryParts(value);
        expect(Number.isSafeInteger(mantissa)).toBe(true);
        expect(mantissa! * 2 ** exponent!).toBe(value === 0 ? mantissa! * 0 : value);
      }),
      { numRuns: 5000 },
    );
    expect(binaryParts(null)).toEqual([null, null]);
  });
});

describe(`prepareInsert (${process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite'})`, () => {
  it('stores every value as given, doubles to the bit and nulls as NULL', async () => {
    const rows = fc.sample(
      fc.record({
        label: fc.option(fc.string({ maxLength: 40 }), { nil: null }),
        count: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
        amount: fc.option(doubles, { nil: null }),
      }),
      3000,
    );
    rows.push(...MISREAD.map((amount) => ({ label: null, count: 1, amount })));
    // What COPY's text format escapes, and what looks like its null.
    rows.push(
      ...['back\\slash', 'tab\there', 'new\nline', 'carriage\rreturn', '\\N', ''].map((label) => ({
        label,
        count: 0,
        amount: 0,
      })),
    );
    // PostgreSQL text cannot hold NUL.
    const withIds = rows.map((row, n) => ({ n, ...row, label: row.label?.replaceAll('\u0000', '') ?? null }));
    await database.db.transaction((trx) => prepareInsert(trx, 'samples', COLUMNS, withIds)());
    const stored = await database.db('samples').orderBy('n');
    expect(stored.map((row) => ({ ...row, count: Number(row.count) }))).toEqual(withIds);
  });

  it('inserts nothing for no rows', async () => {
    const count = async () => Number((await database.db('samples').count({ n: '*' }).first())?.n);
    const before = await count();
    await prepareInsert(database.db, 'samples', COLUMNS, [])();
    expect(await count()).toBe(before);
  });
});
