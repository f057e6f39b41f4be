import type { Knex } from 'knex';
import type { Db } from './connect.js';
import * as identity from './migrations/20261122000000_identity.js';
import * as structure from './migrations/20261122010000_structure.js';

/**
 * Migrations are imported statically rather than discovered on disk, so the same list runs
 * under tsx, vitest and a bundler alike. Append new migrations; never edit a landed one.
 */
const migrations: Record<string, Knex.Migration> = {
  '20261122000000_identity': identity,
  '20261122010000_structure': structure,
};

const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(migrations).sort(),
  getMigrationName: (name) => name,
  getMigration: async (name) => migrations[name]!,
};

/** Applies every pending migration; returns the names applied by this call. */
export async function migrateLatest(db: Db): Promise<string[]> {
  const [, applied] = (await db.migrate.latest({ migrationSource })) as [number, string[]];
  return applied;
}

export async function rollbackAll(db: Db): Promise<void> {
  await db.migrate.rollback({ migrationSource }, true);
}
