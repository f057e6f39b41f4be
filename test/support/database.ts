import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import knexFactory from 'knex';
import { openPostgres, openSqlite, type Db } from '../../src/db/connect.js';
import { migrateLatest } from '../../src/db/migrate.js';

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

export interface TestDatabaseOptions {
  /**
   * A database already at the latest schema: a copy of the run's template database (see
   * test/support/template-database.ts) when there is one, brought up to date by migrateLatest
   * (a no-op unless the template predates a migration), else an empty one migrated from zero.
   * Without it the database is empty, for tests of the migrations themselves.
   */
  migrated?: boolean;
}

/**
 * Where the run's template databases are, set by the global set-up before any test file starts:
 * a migrated SQLite file, and the name of a migrated database on the TEST_DATABASE_URL server.
 */
export const SQLITE_TEMPLATE_VARIABLE = 'HUB_TEST_SQLITE_TEMPLATE';
export const POSTGRES_TEMPLATE_VARIABLE = 'HUB_TEST_POSTGRES_TEMPLATE';

/**
 * A database of its own for one test file: a temp SQLite file, or, when TEST_DATABASE_URL
 * names a PostgreSQL server, a fresh database created on it and dropped afterwards.
 */
export async function createTestDatabase(options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const database = await openTestDatabase(options.migrated ? templateOf(process.env) : undefined);
  if (options.migrated) await migrateLatest(database.db);
  return database;
}

/** The template this engine copies from, when the global set-up made one. */
function templateOf(env: NodeJS.ProcessEnv): string | undefined {
  return (env.TEST_DATABASE_URL ? env[POSTGRES_TEMPLATE_VARIABLE] : env[SQLITE_TEMPLATE_VARIABLE]) || undefined;
}

async function openTestDatabase(template: string | undefined): Promise<TestDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hub-test-'));
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    const file = path.join(dataDir, 'hub.sqlite');
    // The template was closed cleanly, so its whole content is in the one file (no -wal beside it).
    if (template) fs.copyFileSync(template, file);
    const { writer: db, readers, destroy } = openSqlite(file);
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
  const admin = postgresAdmin(adminUrl);
  await admin.raw(template ? `create database ${name} template ${template}` : `create database ${name}`);
  const url = databaseUrlOf(adminUrl, name);
  const { writer: db, readers } = openPostgres(url);
  return {
    db,
    readers,
    dataDir,
    databaseUrl: url,
    engine: 'postgres',
    async drop() {
      await db.destroy();
      await admin.raw(`drop database if exists ${name} with (force)`);
      await admin.destroy();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** One connection to the server's maintenance database, for creating and dropping databases. */
export function postgresAdmin(adminUrl: string): Db {
  return knexFactory({ client: 'pg', connection: { connectionString: adminUrl }, pool: { min: 0, max: 1 } });
}

/** The URL of database `name` on the server `adminUrl` names. */
export function databaseUrlOf(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
