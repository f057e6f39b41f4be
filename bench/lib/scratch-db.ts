/**
 * A throw-away, migrated database for one bench run: a SQLite file in a fresh temp directory,
 * or, when DATABASE_URL is set, a fresh database created on that PostgreSQL server (the URL's
 * role needs CREATEDB) and dropped afterwards. Either way nothing of the run stays behind and
 * nothing already there is touched.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knexFactory from 'knex';
import { openPostgres, openSqlite, type Db } from '../../src/db/connect.js';
import { migrateLatest } from '../../src/db/migrate.js';
import { benchDatabaseUrl, envSwitch } from './env.js';

export interface ScratchDb {
  /** The database's writer, and its readers (the same on PostgreSQL): see Database in src/db/connect.ts. */
  db: Db;
  readers: Db;
  engine: 'sqlite' | 'postgresql';
  /** Where the run keeps files (the SQLite file; the app's workspaces dir points here too). */
  dataDir: string;
  /** PostgreSQL only: the URL of the scratch database, for the app's config. */
  databaseUrl: string | undefined;
  /** Human-readable location, for the report. */
  where: string;
  /** Closes the pool and removes the database and temp dir; idempotent, never throws. */
  drop(): Promise<void>;
}

/** `name` (the case) only names the temp dir: hub-bench-<name>-XXXXXX. */
export async function openScratchDb(tag: string, name = 'structure'): Promise<ScratchDb> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `hub-bench-${name}-`));
  const removeDir = () => fs.rmSync(dataDir, { recursive: true, force: true });
  const serverUrl = benchDatabaseUrl();
  if (!serverUrl) {
    const file = path.join(dataDir, 'hub.sqlite');
    const database = openSqlite(file);
    let dropped = false;
    const scratch: ScratchDb = {
      db: database.writer,
      readers: database.readers,
      engine: 'sqlite',
      dataDir,
      databaseUrl: undefined,
      where: file,
      async drop() {
        if (dropped) return;
        dropped = true;
        await database.destroy().catch(() => undefined);
        removeDir();
      },
    };
    return migrated(scratch);
  }

  const dbName = `hub_bench_${tag}`;
  const url = new URL(serverUrl);
  url.pathname = `/${dbName}`;
  const admin = knexFactory({ client: 'pg', connection: { connectionString: serverUrl }, pool: { min: 0, max: 1 } });
  try {
    await admin.raw('create database ??', [dbName]);
  } catch (err) {
    await admin.destroy();
    removeDir();
    throw new Error(
      `could not create the scratch database ${dbName} on DATABASE_URL (the role needs CREATEDB): ` +
        (err instanceof Error ? err.message : String(err)),
    );
  }
  const database = openPostgres(url.toString());
  let dropped = false;
  const scratch: ScratchDb = {
    db: database.writer,
    readers: database.readers,
    engine: 'postgresql',
    dataDir,
    databaseUrl: url.toString(),
    where: `database ${dbName} on ${url.host} (dropped afterwards)`,
    async drop() {
      if (dropped) return;
      dropped = true;
      await database.destroy().catch(() => undefined);
      try {
        // WITH (FORCE) (PostgreSQL 13+) ends any connection a crashed request left open.
        await admin.raw('drop database if exists ?? with (force)', [dbName]);
      } catch (err) {
        console.error(
          `could not drop the scratch database ${dbName}; drop it by hand: ` +
            (err instanceof Error ? err.message : String(err)),
        );
      } finally {
        await admin.destroy().catch(() => undefined);
        removeDir();
      }
    },
  };
  return migrated(scratch);
}

/** Brings a fresh scratch database to the latest schema, dropping it again if that fails. */
async function migrated(scratch: ScratchDb): Promise<ScratchDb> {
  try {
    await migrateLatest(scratch.db);
  } catch (err) {
    await scratch.drop();
    throw err;
  }
  return scratch;
}

/**
 * ANALYZE the scratch database when BENCH_ANALYZE=1 asks (by default on PostgreSQL, whose planner
 * needs statistics of freshly seeded tables), timed.
 */
export async function analyzeWhenAsked(scratch: ScratchDb): Promise<{ analyzed: boolean; analyzeMs: number | null }> {
  const analyzed = envSwitch('BENCH_ANALYZE', scratch.engine === 'postgresql');
  if (!analyzed) return { analyzed, analyzeMs: null };
  const started = performance.now();
  await scratch.db.raw('analyze');
  return { analyzed, analyzeMs: performance.now() - started };
}

/** What every report of a case on a scratch database starts with: when, on which engine, where. */
export function reportHeader(scratch: ScratchDb, analyzed: boolean) {
  return {
    finishedAt: new Date().toISOString(),
    node: process.version,
    database: scratch.engine,
    where: scratch.where,
    analyzed,
  };
}
