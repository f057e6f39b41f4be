import type { Knex } from 'knex';

/**
 * Three indexes on runs go: each run was written to six B-trees. The only reads of runs are the
 * usage report's, which the covering index (organization, project, time, …) answers for every
 * filter; `(organization, time)`, `(project, time)` and `(session)` served no query, only the
 * cascade of deleting a project, a session or an organization, none of which is ever deleted
 * (they are archived).
 *
 * 1,000,000 runs through `hub usage ingest` on SQLite: 30,400 → 44,600 runs/s (bench/cases/usage.ts).
 * Storing runs and facts WITHOUT ROWID instead, in their primary key's order, measured slower
 * (41,800): every secondary index then carries the 36-character id instead of an 8-byte rowid.
 */
const DROPPED = {
  runs_org_at_idx: '(organization_id, at)',
  runs_project_at_idx: '(project_id, at)',
  runs_session_idx: '(session_id)',
} as const;

export async function up(knex: Knex): Promise<void> {
  for (const name of Object.keys(DROPPED)) await knex.raw(`drop index ${name}`);
}

export async function down(knex: Knex): Promise<void> {
  for (const [name, columns] of Object.entries(DROPPED)) await knex.raw(`create index ${name} on runs ${columns}`);
}
