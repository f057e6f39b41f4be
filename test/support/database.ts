import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import knexFactory from 'knex';
import { openPostgres, openSqlite, type Db } from '../../src/db/connect.js';

export interface TestDatabase {
  db: Db;
  /** The database's readers (Database.readers), for the services' kept reads. */
  readers: Db;
  dataDir: string;
  /** DATABASE_URL for a subprocess that must use the same database; undefined on SQLite. */
  databaseUrl: string | undefined;
  engine: 'sqlite' | 'postgres';
  drop(): Promise<void>;
}

/**
 * A database of its own for one test file: a temp SQLite file, or, when TEST_DATABASE_URL
 * names a PostgreSQL server, a fresh database created on it and dropped afterwards.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hub-test-'));
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    const { writer: db, readers, destroy } = openSqlite(path.join(dataDir, 'hub.sqlite'));
    return {
      db,
      readers,
      dataDir,
      databaseUrl: undefined,
      engine: 'sqlite',
      async drop() {
        await destroy();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const name = `hub_test_${randomBytes(6).toString('hex')}`;
  const admin = knexFactory({ client: 'pg', connection: { connectionString: adminUrl }, pool: { min: 0, max: 1 } });
  await admin.raw(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const { writer: db, readers } = openPostgres(url.toString());
  return {
    db,
    readers,
    dataDir,
    databaseUrl: url.toString(),
    engine: 'postgres',
    async drop() {
      await db.destroy();
      await admin.raw(`drop database if exists ${name} with (force)`);
      await admin.destroy();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
