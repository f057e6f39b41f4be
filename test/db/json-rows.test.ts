import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonRowSets, jsonRows } from '../../src/db/json-rows.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

// Rows read through one JSON text (src/db/json-rows.ts) are the rows the driver would give, on
// the engine under test: the same columns, text, numbers and nulls, in sets read by one statement.
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
  const { db } = database;
  await db.schema.createTable('items', (t) => {
    t.string('id', 36).primary();
    t.string('name').notNullable();
    t.string('note').nullable();
    t.integer('size').notNullable();
    t.double('price').nullable();
  });
  await db('items').insert([
    { id: 'a', name: 'Ünïcode "quoted" \\ name', note: null, size: 3, price: 1.25 },
    { id: 'b', name: 'plain', note: 'x', size: 0, price: null },
  ]);
});
afterAll(() => database.drop());

describe('jsonRows', () => {
  it('gives the rows the driver gives, value for value', async () => {
    const { db } = database;
    const query = () => db('items').select('id', 'name', 'note', 'size', 'price');
    const direct = await query();
    const viaJson = await jsonRows<{ id: string }>(db, query(), ['id', 'name', 'note', 'size', 'price']);
    const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
    expect(viaJson.sort(byId)).toEqual(direct.sort(byId));
  });

  it('counts as numbers, and an empty set as no rows', async () => {
    const { db } = database;
    const counted = db('items').groupBy('name').select('name', db.raw('count(*) as n'));
    const none = db('items').where({ id: 'nobody' }).select('id');
    const { counts, empty } = await jsonRowSets(db, {
      counts: { query: counted, columns: ['name', 'n'] },
      empty: { query: none, columns: ['id'] },
    });
    expect(counts).toHaveLength(2);
    for (const row of counts as { n: unknown }[]) expect(row.n).toBe(1);
    expect(empty).toEqual([]);
  });

  it('fails on a column the query does not select, rather than reading its name as text', async () => {
    const { db } = database;
    await expect(jsonRows(db, db('items').select('id'), ['id', 'missing'])).rejects.toThrow();
  });
});
