import type { Knex } from 'knex';
import { isPostgres } from '../connect.js';

const RUN_SUMS = ['run_count', 'runs_with_cost', 'input_tokens', 'output_tokens', 'cost_micros'];

/**
 * The levels per accountable member: the member leads (a team's figures read its members' days),
 * then the period, the API token and the project. `''` stands for "none" in a key column.
 */
const LEVELS: Array<{ table: string; grain: 'day' | 'month'; length: number }> = [
  { table: 'usage_run_member_days', grain: 'day', length: 10 },
  { table: 'usage_run_member_months', grain: 'month', length: 7 },
];

/**
 * Who started each run, and who opened each agent session:
 * - `initiator_type` and `initiator_id`: the principal the run line named (`member` with the
 *   user's id, `apiToken` with the token's id), null for a run nobody is named for (a schedule,
 *   and every run stored before this migration);
 * - `member_id`: the member accountable for the run, the member themself or the owner of the API
 *   token, so a member's spend includes what their tokens started.
 * The new levels per member and day and per member and month start with every run stored so far,
 * summed from the daily level as unattributed.
 */
export async function up(knex: Knex): Promise<void> {
  for (const table of ['runs', 'agent_sessions']) {
    await knex.raw(`alter table ${table} add column initiator_type varchar(16) null`);
    await knex.raw(`alter table ${table} add column initiator_id varchar(36) null`);
    await knex.raw(`alter table ${table} add column member_id varchar(36) null`);
  }
  // A member's runs in time order: the reads by team follow each member's memberships.
  await knex.raw('create index runs_org_member_at_idx on runs (organization_id, member_id, at)');
  const sqlite = !isPostgres(knex);
  for (const { table, grain, length } of LEVELS) {
    const key: Array<[string, number]> = [
      ['organization_id', 36],
      ['member_id', 36],
      [grain, length],
      ['api_token_id', 36],
      ['project_id', 36],
    ];
    const columns = [
      ...key.map(([name, len]) => `${name} varchar(${len}) not null`),
      ...RUN_SUMS.map((s) => `${s} bigint not null`),
    ];
    const primary = `constraint ${table}_pkey primary key (${key.map(([name]) => name).join(', ')})`;
    await knex.raw(`create table ${table} (${[...columns, primary].join(', ')})${sqlite ? ' without rowid' : ''}`);
    const period = grain === 'month' ? 'substr(d.day, 1, 7)' : 'd.day';
    // Every run stored so far is unattributed: its project's rows, under no member and no token.
    await knex.raw(
      `insert into ${table} (organization_id, member_id, ${grain}, api_token_id, project_id, ${RUN_SUMS.join(', ')}) ` +
        `select d.organization_id, '', ${period}, '', d.project_id, ${RUN_SUMS.map((s) => `sum(d.${s})`).join(', ')} ` +
        `from usage_run_days as d group by d.organization_id, ${period}, d.project_id`,
    );
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const { table } of LEVELS) await knex.schema.dropTable(table);
  await knex.raw('drop index runs_org_member_at_idx');
  for (const table of ['runs', 'agent_sessions']) {
    for (const column of ['initiator_type', 'initiator_id', 'member_id']) {
      await knex.raw(`alter table ${table} drop column ${column}`);
    }
  }
}
