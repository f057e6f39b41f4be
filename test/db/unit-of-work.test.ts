// A unit of work that loses a write race is run again, not failed: two connections write the
// same database, as the server and the host console do.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPostgres, openPostgres, openSqlite, type Database } from '../../src/db/connect.js';
import { UnitOfWork } from '../../src/db/unit-of-work.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

let database: TestDatabase;
/** A second, independent connection to the same database. */
let other: Database;

beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.schema.createTable('counters', (t) => {
    t.string('id').primary();
    t.integer('value').notNullable();
  });
  await database.db('counters').insert({ id: 'c', value: 0 });
  other = database.databaseUrl
    ? openPostgres(database.databaseUrl)
    : openSqlite(path.join(database.dataDir, 'hub.sqlite'));
});
afterAll(async () => {
  await other?.destroy();
  await database?.drop();
});

describe('UnitOfWork.run', () => {
  it('runs a transaction again when another writer committed under it, and keeps both writes', async () => {
    const uow = new UnitOfWork(database.db);
    let attempts = 0;
    await uow.run(async (trx) => {
      attempts += 1;
      // Read first: the transaction now works from a snapshot...
      const { value } = (await trx('counters').where({ id: 'c' }).first()) as { value: number };
      // ...which another connection's committed write makes stale, once.
      if (attempts === 1) await other.writer('counters').where({ id: 'c' }).update({ value: 100 });
      if (isPostgres(database.db) && attempts === 1) {
        // PostgreSQL's default isolation lets the write through; force the same conflict.
        throw Object.assign(new Error('could not serialize access'), { code: '40001' });
      }
      await trx('counters')
        .where({ id: 'c' })
        .update({ value: value + 1 });
    });
    expect(attempts).toBe(2);
    expect(((await database.db('counters').where({ id: 'c' }).first()) as { value: number }).value).toBe(101);
  });

  it('does not run again a transaction that failed for any other reason', async () => {
    const uow = new UnitOfWork(database.db);
    let attempts = 0;
    await expect(
      uow.run(async () => {
        attempts += 1;
        throw new Error('a rule refused it');
      }),
    ).rejects.toThrow('a rule refused it');
    expect(attempts).toBe(1);
  });
});
