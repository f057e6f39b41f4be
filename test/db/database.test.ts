import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_DB_WAIT_MS } from '../../src/config/config.js';
import { isPostgres } from '../../src/db/connect.js';
import { migrateLatest, rollbackAll } from '../../src/db/migrate.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

const TABLES = ['users', 'organizations', 'organization_settings', 'memberships', 'login_sessions', 'login_links'];

describe(`database (${process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite'})`, () => {
  it('runs on the engine TEST_DATABASE_URL selects', () => {
    expect(isPostgres(database.db)).toBe(Boolean(process.env.TEST_DATABASE_URL));
  });

  it('migrates up, down and up again with the same files', async () => {
    expect(await migrateLatest(database.db)).not.toHaveLength(0);
    for (const table of TABLES) expect(await database.db.schema.hasTable(table), table).toBe(true);
    expect(await migrateLatest(database.db)).toEqual([]);
    await rollbackAll(database.db);
    for (const table of TABLES) expect(await database.db.schema.hasTable(table), table).toBe(false);
    await migrateLatest(database.db);
    expect(await database.db.schema.hasTable('users')).toBe(true);
  });

  it('enforces foreign keys', async () => {
    await expect(
      database.db('memberships').insert({
        id: 'm1',
        organization_id: 'missing',
        user_id: 'missing',
        role: 'OWNER',
        created_at: new Date().toISOString(),
      }),
    ).rejects.toThrow();
  });

  it.runIf(!process.env.TEST_DATABASE_URL)(
    'opens SQLite with WAL, a busy timeout, foreign keys, synchronous=FULL and a 64 MiB page cache',
    async () => {
      const pragma = async (name: string) => Object.values((await database.db.raw(`PRAGMA ${name}`))[0])[0];
      expect(await pragma('journal_mode')).toBe('wal');
      expect(await pragma('foreign_keys')).toBe(1);
      expect(await pragma('synchronous')).toBe(2);
      expect(await pragma('busy_timeout')).toBe(DEFAULT_DB_WAIT_MS);
      expect(await pragma('cache_size')).toBe(-65_536);
    },
  );
});
