/**
 * vitest's global set-up: once per run, before any test file starts, the engine's database is made
 * and migrated to the latest schema, from whatever migrations src/db/migrate.ts lists at that
 * moment. Each file's `createTestDatabase({ migrated: true })` (every TestHub) then copies it — a
 * file copy on SQLite, `CREATE DATABASE … TEMPLATE` on PostgreSQL — instead of running every
 * migration again. The migration tests take an empty database and still migrate from zero.
 *
 * The location reaches the test workers through the environment, which they inherit.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { openPostgres, openSqlite } from '../../src/db/connect.js';
import { migrateLatest } from '../../src/db/migrate.js';
import { databaseUrlOf, POSTGRES_TEMPLATE_VARIABLE, postgresAdmin, SQLITE_TEMPLATE_VARIABLE } from './database.js';

export default async function setup(): Promise<() => Promise<void>> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hub-template-'));
    const file = path.join(dir, 'hub.sqlite');
    const database = openSqlite(file);
    try {
      await migrateLatest(database.writer);
    } finally {
      // Closing the last connection checkpoints the write-ahead log into the file.
      await database.destroy();
    }
    process.env[SQLITE_TEMPLATE_VARIABLE] = file;
    return async () => {
      delete process.env[SQLITE_TEMPLATE_VARIABLE];
      fs.rmSync(dir, { recursive: true, force: true });
    };
  }
  const name = `hub_template_${randomBytes(6).toString('hex')}`;
  const admin = postgresAdmin(adminUrl);
  await admin.raw(`create database ${name}`);
  const database = openPostgres(databaseUrlOf(adminUrl, name));
  try {
    await migrateLatest(database.writer);
  } finally {
    // A template with a connection open cannot be copied.
    await database.destroy();
  }
  process.env[POSTGRES_TEMPLATE_VARIABLE] = name;
  return async () => {
    delete process.env[POSTGRES_TEMPLATE_VARIABLE];
    await admin.raw(`drop database if exists ${name} with (force)`);
    await admin.destroy();
  };
}
