import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preparedPerPresence, preparedQuery } from '../../src/db/prepared-query.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

// A prepared query (src/db/prepared-query.ts) is built once and run with each call's values, on
// the engine under test, inside and outside a transaction; a build it cannot keep fails loudly.
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
  const { db } = database;
  await db.schema.createTable('things', (t) => {
    t.string('id', 36).primary();
    t.string('owner').notNullable();
    t.string('label').nullable();
    t.integer('size').notNullable();
  });
  await db('things').insert([
    { id: 'a', owner: 'ann', label: 'first', size: 1 },
    { id: 'b', owner: 'ann', label: null, size: 2 },
    { id: 'c', owner: 'bob', label: "it's", size: 3 },
  ]);
});
afterAll(() => database.drop());

type Thing = { id: string; owner: string; label: string | null; size: number };

const byOwner = preparedQuery<{ owner: string; minSize: number }, Thing>((db, { owner, minSize }) =>
  db('things').where({ owner }).andWhere('size', '>=', minSize).orderBy('id').select('id', 'owner', 'label', 'size'),
);

describe('preparedQuery', () => {
  it("binds each call's values, and answers the rows knex's builder answers", async () => {
    const { db } = database;
    const built = await db('things').where({ owner: 'ann' }).orderBy('id').select('id', 'owner', 'label', 'size');
    expect(await byOwner(db, { owner: 'ann', minSize: 0 })).toEqual(built);
    expect(await byOwner(db, { owner: 'ann', minSize: 2 })).toEqual(built.filter((t) => t.size >= 2));
    expect(await byOwner(db, { owner: 'bob', minSize: 0 })).toEqual([
      { id: 'c', owner: 'bob', label: "it's", size: 3 },
    ]);
    expect(await byOwner(db, { owner: "nobody' or 1=1 --", minSize: 0 })).toEqual([]);
  });

  it("keeps the build's own constants, and uses one parameter in several places", async () => {
    const { db } = database;
    const firstOf = preparedQuery<{ owner: string }, { id: string }>((db, { owner }) =>
      db('things').where({ owner }).orWhere({ id: owner }).orderBy('size', 'desc').limit(1).select('id'),
    );
    expect(await firstOf(db, { owner: 'ann' })).toEqual([{ id: 'b' }]);
    expect(await firstOf(db, { owner: 'a' })).toEqual([{ id: 'a' }]);
  });

  it('runs in the transaction it is given, seeing its uncommitted rows', async () => {
    const { db } = database;
    await db
      .transaction(async (trx) => {
        await trx('things').insert({ id: 'd', owner: 'cid', label: null, size: 4 });
        expect(await byOwner(trx, { owner: 'cid', minSize: 0 })).toEqual([
          { id: 'd', owner: 'cid', label: null, size: 4 },
        ]);
        throw new Error('roll back');
      })
      .catch((err: Error) => expect(err.message).toBe('roll back'));
    expect(await byOwner(db, { owner: 'cid', minSize: 0 })).toEqual([]);
  });

  it('reads beside an open transaction, seeing what was committed before it began', async () => {
    const { db } = database;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let inserted!: () => void;
    const written = new Promise<void>((resolve) => (inserted = resolve));
    const transaction = db.transaction(async (trx) => {
      await trx('things').insert({ id: 'e', owner: 'eve', label: null, size: 5 });
      inserted();
      await held;
    });
    await written;
    // On SQLite the transaction holds the writer, the only connection that writes: this read
    // would wait for it, were it not made through the database's readers.
    expect(await byOwner(database.readers, { owner: 'eve', minSize: 0 })).toEqual([]);
    release();
    await transaction;
    expect(await byOwner(database.readers, { owner: 'eve', minSize: 0 })).toEqual([
      { id: 'e', owner: 'eve', label: null, size: 5 },
    ]);
    await db('things').where({ id: 'e' }).delete();
  });

  it.skipIf(process.env.TEST_DATABASE_URL)("refuses to write on SQLite's readers", async () => {
    const { db } = database;
    const insertThing = preparedQuery<{ id: string }, never>((db, { id }) =>
      db('things').insert({ id, owner: 'mal', label: null, size: 9 }),
    );
    await expect(insertThing(database.readers, { id: 'm' })).rejects.toThrow(/readonly/);
    expect(await db('things').where({ id: 'm' })).toEqual([]);
  });

  it("is seen by the writer's query listeners with its SQL and values, when run through the readers", async () => {
    const { db, readers } = database;
    const seen: { sql: string; bindings: unknown[] }[] = [];
    const listener = (query: { sql: string; bindings: unknown[] }): void => void seen.push(query);
    db.on('query', listener);
    try {
      await byOwner(readers, { owner: 'bob', minSize: 3 });
    } finally {
      db.off('query', listener);
    }
    expect(seen).toHaveLength(1);
    expect(seen[0]!.sql).toMatch(/from "things"|from `things`/);
    expect(seen[0]!.bindings).toEqual(['bob', 3]);
  });

  it("fails with the database's error naming the SQL, and gives its connection back", async () => {
    const { db } = database;
    await db.schema.createTable('doomed', (t) => t.string('id').primary());
    const fromDoomed = preparedQuery<{ id: string }, { id: string }>((db, { id }) => db('doomed').where({ id }));
    expect(await fromDoomed(db, { id: 'x' })).toEqual([]);
    await db.schema.dropTable('doomed');
    // More failures than SQLite has readers: were each to keep its connection, the read after
    // them would wait for one forever.
    for (let i = 0; i < 3; i++)
      await expect(fromDoomed(database.readers, { id: 'x' })).rejects.toThrow(
        /doomed.*(no such table|does not exist)/s,
      );
    expect(await byOwner(database.readers, { owner: 'bob', minSize: 0 })).toHaveLength(1);
  });

  it('refuses a build that would not bind a value as a whole', async () => {
    const { db } = database;
    const spliced = preparedQuery<{ owner: string }, Thing>((db, { owner }) =>
      db('things').whereRaw(`owner = '${owner}'`),
    );
    await expect(spliced(db, { owner: 'ann' })).rejects.toThrow(/written into the SQL text/);
    const partOf = preparedQuery<{ owner: string }, Thing>((db, { owner }) =>
      db('things').where('owner', 'like', `%${owner}%`),
    );
    await expect(partOf(db, { owner: 'ann' })).rejects.toThrow(/bound as part of/);
  });

  it('refuses a call without a value for a parameter', async () => {
    const { db } = database;
    await expect(byOwner(db, { owner: 'ann' } as never)).rejects.toThrow(/no value for the parameter "minSize"/);
  });
});

describe('preparedPerPresence', () => {
  const things = preparedPerPresence<
    { owner: string; label?: string | undefined; minSize?: number | undefined },
    Thing
  >((db, { owner, label, minSize }) => {
    const query = db('things').where({ owner }).orderBy('id').select('id', 'owner', 'label', 'size');
    if (label !== undefined) query.where({ label });
    if (minSize !== undefined) query.where('size', '>=', minSize);
    return query;
  });

  it('keeps one statement per set of given parameters, each bound with its call values', async () => {
    const { db } = database;
    const ann = await db('things').where({ owner: 'ann' }).orderBy('id').select('id', 'owner', 'label', 'size');
    expect(await things(db, { owner: 'ann' })).toEqual(ann);
    expect(await things(db, { owner: 'ann', label: 'first' })).toEqual(ann.filter((t) => t.label === 'first'));
    expect(await things(db, { owner: 'ann', minSize: 2 })).toEqual(ann.filter((t) => t.size >= 2));
    expect(await things(db, { owner: 'ann', label: 'first', minSize: 2 })).toEqual([]);
    // An absent filter given as undefined is the same statement as one left out; values change per call.
    expect(await things(db, { owner: 'bob', label: undefined, minSize: 3 })).toEqual([
      { id: 'c', owner: 'bob', label: "it's", size: 3 },
    ]);
    expect(await things(db, { minSize: 0, owner: 'bob' })).toEqual([{ id: 'c', owner: 'bob', label: "it's", size: 3 }]);
    expect(await things(db, { owner: 'ann', label: "first' or 1=1 --" })).toEqual([]);
  });
});
