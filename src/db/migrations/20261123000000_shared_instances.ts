import type { Knex } from 'knex';

/**
 * What several `hub serve` processes on one PostgreSQL must share instead of keeping in their
 * own memory or on their own disk:
 *
 * - `request_rate_windows`: each organization's current `requestRate` window (its start in the
 *   database's clock, in milliseconds since the epoch, and the requests admitted in it), so the
 *   limit is counted across instances by one statement per request.
 * - `skill_content_entries` / `skill_content_files`: the content-addressed skill store, so a
 *   skill installed through one instance reads back through every other. An entry row and its
 *   files are inserted in one transaction: an entry is absent or complete, never partial.
 *
 * The tables exist on SQLite too (the same migrations serve both), where one process keeps
 * the windows in memory and the store on disk.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('request_rate_windows', (t) => {
    t.string('organization_id', 36).primary().references('id').inTable('organizations').onDelete('CASCADE');
    t.bigInteger('window_started_ms').notNullable();
    t.integer('request_count').notNullable();
  });

  await knex.schema.createTable('skill_content_entries', (t) => {
    t.string('digest', 64).primary();
    t.integer('file_count').notNullable();
    t.bigInteger('total_bytes').notNullable();
    t.string('created_at', 24).notNullable();
  });
  await knex.schema.createTable('skill_content_files', (t) => {
    t.string('digest', 64).notNullable().references('digest').inTable('skill_content_entries').onDelete('CASCADE');
    t.string('path', 4096).notNullable();
    t.binary('bytes').notNullable();
    t.primary(['digest', 'path'], 'skill_content_files_pkey');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('skill_content_files');
  await knex.schema.dropTable('skill_content_entries');
  await knex.schema.dropTable('request_rate_windows');
}
