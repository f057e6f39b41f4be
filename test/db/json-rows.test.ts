import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preparedRowSets, preparedRows } from '../../src/db/json-rows.js';
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

describe('preparedRows', () => {
  it('gives the rows the driver gives, value for value', async () => {
    const { db } = database;
    const direct = await db('items').select('id', 'name', 'note', 'size', 'price');
    const read = preparedRows<{ minSize: number }, { id: string }>((db, { minSize }) => ({
      query: db('items').where('size', '>=', minSize).select('id', 'name', 'note', 'size', 'price'),
      columns: ['id', 'name', 'note', 'size', 'price'],
    }));
    const viaJson = await read(db, { minSize: 0 });
    const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
    expect(viaJson.sort(byId)).toEqual(direct.sort(byId));
    // The second call runs the kept statement with its own value.
    expect(await read(db, { minSize: 1 })).toEqual(direct.filter((row) => row.size >= 1));
  });

  it('counts as numbers, and an empty set as no rows', async () => {
    const { db } = database;
    const read = preparedRowSets((db, { id }: { id: string }) => ({
      counts: { query: db('items').groupBy('name').select('name', db.raw('count(*) as n')), columns: ['name', 'n'] },
      empty: { query: db('items').where({ id }).select('id'), columns: ['id'] },
    }));
    const { counts, empty } = await read(db, { id: 'nobody' });
    expect(counts).toHaveLength(2);
    for (const row of counts as { n: unknown }[]) expect(row.n).toBe(1);
    expect(empty).toEqual([]);
  });

  it("makes each row with the set's own builder, from its values in column order", async () => {
    const { db } = database;
    const read = preparedRowSets((db) => ({
      built: {
        query: db('items').orderBy('id').select('id', 'size', 'note'),
        columns: ['id', 'size', 'note'],
        row: ([id, size, note]: unknown[]) => ({ label: `${id}:${size}`, note }),
      },
      plain: { query: db('items').orderBy('id').select('id'), columns: ['id'] },
    }));
    expect(await read(db, {})).toEqual({
      built: [
        { label: 'a:3', note: null },
        { label: 'b:0', note: 'x' },
      ],
      plain: [{ id: 'a' }, { id: 'b' }],
    });
  });

  it('fails on a column the query does not select, rather than reading its name as text', async () => {
    const { db } = database;
    const read = preparedRows((db) => ({ query: db('items').select('id'), columns: ['id', 'missing'] }));
    await expect(read(db, {})).rejects.toThrow();
  });
});
