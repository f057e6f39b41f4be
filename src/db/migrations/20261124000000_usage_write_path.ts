import type { Knex } from 'knex';

/**
 * The write path of `hub usage ingest`: what the database does for each run and fact it stores.
 *
 * - Three indexes on runs go. The only reads of runs are the usage report's, which the covering
 *   index (organization, project, time, …) answers for every filter; `(organization, time)`,
 *   `(project, time)` and `(session)` served no query.
 * - A run keeps one reference, to its session; a fact one, to its run. Their organization and
 *   project are copies of the session's (ingest checks that a run's project is its session's), kept
 *   so the report and the breakdown read one index; references on the copies checked nothing the
 *   session's does not, and deleting an organization or a project still reaches every run and fact
 *   through projects → sessions → runs → facts. Each reference is a lookup per row: on
 *   PostgreSQL, three of them cost more than the row's own writes.
 *
 * SQLite cannot drop a constraint, so there the two tables are rebuilt as they were, less those.
 * Nothing deletes organizations, projects or sessions (they are archived), so the cascades are
 * left without an index on runs.session_id.
 *
 * Dropping the references and the collation below made the ingest markedly faster in
 * `hub usage ingest` (bench/cases/usage.ts; the figures: bench/README.md). Storing runs and
 * facts WITHOUT ROWID on SQLite measured slower: every secondary index then carries the
 * 36-character id instead of an 8-byte rowid.
 */
const DROPPED_INDEXES = {
  runs_org_at_idx: '(organization_id, at)',
  runs_project_at_idx: '(project_id, at)',
  runs_session_idx: '(session_id)',
} as const;

/** The references that go: table, column, referenced table. */
const DROPPED_REFERENCES = [
  ['runs', 'organization_id', 'organizations'],
  ['runs', 'project_id', 'projects'],
  ['run_facts', 'organization_id', 'organizations'],
  ['run_facts', 'project_id', 'projects'],
] as const;

/**
 * PostgreSQL: the text columns ingest writes into keys, compared byte by byte (COLLATE "C"), as
 * SQLite compares all text. They hold ids, ISO times and fixed words, never prose, and a
 * database's default collation (say en_US.UTF-8, or the C library's C.UTF-8, as here) compares
 * through the C library's strcoll: with a whole organization's runs sharing their first key
 * column, and time-ordered ids sharing their first characters, that was a large part of a run's
 * cost.
 */
const BYTEWISE_COLUMNS = {
  agent_sessions: { id: 64 },
  runs: { id: 36, organization_id: 36, project_id: 36, session_id: 64, at: 24 },
  run_facts: { run_id: 36, organization_id: 36, project_id: 36, at: 24, kind: 16, capability_id: 63 },
} as const;

const onPostgres = (knex: Knex) => knex.client.config.client === 'pg';

/** The columns of BYTEWISE_COLUMNS in `collation` ("C", or the database's default). */
async function collate(knex: Knex, collation: string): Promise<void> {
  for (const [table, columns] of Object.entries(BYTEWISE_COLUMNS)) {
    const changes = Object.entries(columns).map(
      ([column, length]) => `alter column ${column} type varchar(${length}) collate "${collation}"`,
    );
    await knex.raw(`alter table ${table} ${changes.join(', ')}`);
  }
}

export async function up(knex: Knex): Promise<void> {
  for (const name of Object.keys(DROPPED_INDEXES)) await knex.raw(`drop index ${name}`);
  if (!onPostgres(knex)) return rebuildSqlite(knex, false);
  for (const [table, column] of DROPPED_REFERENCES) {
    await knex.raw(`alter table ${table} drop constraint ${table}_${column}_foreign`);
  }
  await collate(knex, 'C');
}

export async function down(knex: Knex): Promise<void> {
  if (onPostgres(knex)) {
    await collate(knex, 'default');
    for (const [table, column, parent] of DROPPED_REFERENCES) {
      await knex.raw(
        `alter table ${table} add constraint ${table}_${column}_foreign foreign key (${column}) ` +
          `references ${parent} (id) on delete cascade`,
      );
    }
  } else {
    await rebuildSqlite(knex, true);
  }
  for (const [name, columns] of Object.entries(DROPPED_INDEXES))
    await knex.raw(`create index ${name} on runs ${columns}`);
}

/**
 * Copies runs and facts into new tables, with or without the references on their copied
 * organization and project, then swaps them in. The facts move first and the old runs are
 * dropped after them: with foreign keys on, dropping a table deletes its rows first, and deleting
 * runs would cascade to the facts that refer to them. Renaming `runs_next` to `runs` rewrites the
 * new facts table's reference to it.
 */
async function rebuildSqlite(knex: Knex, withCopiedReferences: boolean): Promise<void> {
  const copied = (table: string) =>
    withCopiedReferences
      ? DROPPED_REFERENCES.filter(([t]) => t === table).map(
          ([, column, parent]) => `foreign key (${column}) references ${parent} (id) on delete cascade, `,
        )
      : [];
  await knex.raw(
    'create table runs_next (id varchar(36), organization_id varchar(36) not null, ' +
      'project_id varchar(36) not null, session_id varchar(64) not null, at varchar(24) not null, ' +
      'input_tokens bigint not null, output_tokens bigint not null, cost_usd float null, ' +
      copied('runs').join('') +
      'foreign key (session_id) references agent_sessions (id) on delete cascade, primary key (id))',
  );
  await knex.raw(`insert into runs_next (${RUN_COLUMNS}) select ${RUN_COLUMNS} from runs`);
  await knex.raw(
    'create table run_facts_next (run_id varchar(36) not null, ordinal integer not null, ' +
      'organization_id varchar(36) not null, project_id varchar(36) not null, at varchar(24) not null, ' +
      'kind varchar(16) not null, capability_id varchar(63) null, quantity bigint not null, ' +
      'unit varchar(16) not null, cost_usd float null, ' +
      'foreign key (run_id) references runs_next (id) on delete cascade, ' +
      copied('run_facts').join('') +
      'constraint run_facts_pkey primary key (run_id, ordinal))',
  );
  await knex.raw(`insert into run_facts_next (${FACT_COLUMNS}) select ${FACT_COLUMNS} from run_facts`);
  await knex.raw('drop table run_facts');
  await knex.raw('drop table runs');
  await knex.raw('alter table runs_next rename to runs');
  await knex.raw('alter table run_facts_next rename to run_facts');
  await knex.raw(
    'create index runs_org_project_cover_idx on runs (organization_id, project_id, at, input_tokens, ' +
      'output_tokens, cost_usd)',
  );
  await knex.raw(
    'create index run_facts_org_project_cover_idx on run_facts (organization_id, project_id, at, kind, ' +
      'capability_id, quantity, cost_usd)',
  );
}

const RUN_COLUMNS = 'id, organization_id, project_id, session_id, at, input_tokens, output_tokens, cost_usd';
const FACT_COLUMNS = 'run_id, ordinal, organization_id, project_id, at, kind, capability_id, quantity, unit, cost_usd';
