import type { Knex } from 'knex';
import { isPostgres } from '../connect.js';

const RUN_SUMS = ['run_count', 'runs_with_cost', 'input_tokens', 'output_tokens', 'cost_micros'];

/** A cost in whole micro-dollars, rounded half up (null for null), as each engine computes it. */
const costMicros = (knex: Knex, column: string) =>
  isPostgres(knex) ? `floor(${column} * 1000000 + 0.5)::bigint` : `cast(${column} * 1000000 + 0.5 as integer)`;

const LEVELS: Array<{ table: string; grain: 'day' | 'month'; length: number }> = [
  { table: 'usage_run_member_days', grain: 'day', length: 10 },
  { table: 'usage_run_member_months', grain: 'month', length: 7 },
];

/** The person levels' keys after the organization, in primary-key order, with or without the service account. */
const keysOf = (grain: 'day' | 'month', withAccount: boolean) => [
  'member_id',
  grain,
  'api_token_id',
  ...(withAccount ? ['service_account_id'] : []),
  'project_id',
];

/**
 * (Re)creates the person levels and fills them from the raw runs: the daily level summed from
 * `runs`, the monthly from the daily. `withAccount` adds the service account key.
 */
async function buildLevels(knex: Knex, withAccount: boolean): Promise<void> {
  const sqlite = !isPostgres(knex);
  for (const { table, grain, length } of LEVELS) {
    if (await knex.schema.hasTable(table)) await knex.schema.dropTable(table);
    const key: Array<[string, number]> = [
      ['organization_id', 36],
      ...keysOf(grain, withAccount).map((name): [string, number] => [name, name === grain ? length : 36]),
    ];
    const columns = [
      ...key.map(([name, len]) => `${name} varchar(${len}) not null`),
      ...RUN_SUMS.map((s) => `${s} bigint not null`),
    ];
    const primary = `constraint ${table}_pkey primary key (${key.map(([name]) => name).join(', ')})`;
    await knex.raw(`create table ${table} (${[...columns, primary].join(', ')})${sqlite ? ' without rowid' : ''}`);
  }
  const dayKeys = keysOf('day', withAccount);
  const raw: Record<string, string> = {
    member_id: "coalesce(r.member_id, '')",
    day: 'substr(r.at, 1, 10)',
    api_token_id: "case when r.initiator_type = 'apiToken' then r.initiator_id else '' end",
    service_account_id: "coalesce(r.service_account_id, '')",
    project_id: 'r.project_id',
  };
  const exprs = dayKeys.map((k) => raw[k]!);
  await knex.raw(
    `insert into usage_run_member_days (organization_id, ${dayKeys.join(', ')}, ${RUN_SUMS.join(', ')}) ` +
      `select r.organization_id, ${exprs.join(', ')}, count(*), count(r.cost_usd), ` +
      'coalesce(sum(r.input_tokens), 0), coalesce(sum(r.output_tokens), 0), ' +
      `coalesce(sum(${costMicros(knex, 'r.cost_usd')}), 0) from runs as r ` +
      `group by r.organization_id, ${exprs.join(', ')}`,
  );
  const monthly = async (table: string, keys: string[]) => {
    const fromDay = keys.map((k) => (k === 'month' ? 'substr(d.day, 1, 7)' : `d.${k}`));
    await knex.raw(
      `insert into ${table} (organization_id, ${keys.join(', ')}, ${RUN_SUMS.join(', ')}) ` +
        `select d.organization_id, ${fromDay.join(', ')}, ${RUN_SUMS.map((s) => `sum(d.${s})`).join(', ')} ` +
        `from usage_run_member_days as d group by d.organization_id, ${fromDay.join(', ')}`,
    );
  };
  await monthly('usage_run_member_months', keysOf('month', withAccount));
  if (!withAccount) return;
  // The person months without the project: a report by person over whole months reads a row per
  // member, token or account and month instead of one per project too.
  const personKeys = keysOf('month', true).filter((k) => k !== 'project_id');
  const columns = [
    'organization_id varchar(36) not null',
    ...personKeys.map((k) => `${k} varchar(${k === 'month' ? 7 : 36}) not null`),
    ...RUN_SUMS.map((s) => `${s} bigint not null`),
    `constraint usage_run_person_months_pkey primary key (organization_id, ${personKeys.join(', ')})`,
  ];
  await knex.raw(
    `create table usage_run_person_months (${columns.join(', ')})${isPostgres(knex) ? '' : ' without rowid'}`,
  );
  await monthly('usage_run_person_months', personKeys);
}

/** The alerts' columns but the member's, as the budgets migration made them. */
const ALERT_COLUMNS = ['budget_id', 'period_start', 'threshold', 'spent', 'created_at'];

/**
 * Re-creates `budget_alerts` with or without `member_id` in its primary key, keeping its rows
 * (dropping, on the way down, the alerts that named a member). SQLite cannot change a primary
 * key in place; PostgreSQL does, but one path for both keeps them alike.
 */
async function rebuildAlerts(knex: Knex, withMember: boolean): Promise<void> {
  await knex.schema.renameTable('budget_alerts', 'budget_alerts_before');
  if (isPostgres(knex)) await knex.raw('alter table budget_alerts_before drop constraint budget_alerts_pkey');
  await knex.schema.createTable('budget_alerts', (t) => {
    t.string('budget_id', 36).notNullable().references('id').inTable('budgets').onDelete('CASCADE');
    t.string('period_start', 24).notNullable();
    t.integer('threshold').notNullable();
    if (withMember) t.string('member_id', 36).notNullable().defaultTo('');
    t.double('spent').notNullable();
    t.string('created_at', 24).notNullable();
    const key = ['budget_id', 'period_start', 'threshold', ...(withMember ? ['member_id'] : [])];
    t.primary(key, 'budget_alerts_pkey');
  });
  const columns = ALERT_COLUMNS.join(', ');
  await knex.raw(
    `insert into budget_alerts (${columns}) select ${columns} from budget_alerts_before` +
      (withMember ? '' : " where member_id = ''"),
  );
  await knex.schema.dropTable('budget_alerts_before');
}

/**
 * Per-member allowances: `budgets.per_member` (each member's own spend against the amount, on an
 * organization, folder or team budget), and `budget_alerts.member_id` in the alerts' key, so a
 * threshold is announced once per member and period (`''` for a budget's shared pool).
 *
 * The service account accountable for each run, beside the member:
 * - `runs.service_account_id`: the service account that started the run, or the one that owns the
 *   API token it was started through; null otherwise. Runs a service account's token started were
 *   counted for the account as if it were a member (`member_id` held its user id); they are no
 *   member's now, on runs and on the sessions they opened.
 * - the person levels (per member, API token and project, by day and by month) gain the service
 *   account as a key, and are rebuilt from the raw runs; a level of person months without the
 *   project (`usage_run_person_months`) answers the reports by person over whole months.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table runs add column service_account_id varchar(36) null');
  await knex.raw("update runs set service_account_id = initiator_id where initiator_type = 'serviceAccount'");
  await knex.raw(
    "update runs set service_account_id = member_id, member_id = null where initiator_type = 'apiToken' " +
      'and member_id in (select id from service_accounts)',
  );
  await knex.raw(
    "update agent_sessions set member_id = null where initiator_type = 'apiToken' " +
      'and member_id in (select id from service_accounts)',
  );
  await buildLevels(knex, true);
  await knex.schema.alterTable('budgets', (t) => {
    t.boolean('per_member').notNullable().defaultTo(false);
  });
  await rebuildAlerts(knex, true);
}

/**
 * Budgets lose their per-member allowances (and the alerts that named a member); the person levels
 * lose the service account key; a service account's token counts for it as a member again.
 */
export async function down(knex: Knex): Promise<void> {
  await rebuildAlerts(knex, false);
  // In place: knex would re-create the table on SQLite, and dropping it would cascade to the alerts.
  await knex.raw('alter table budgets drop column per_member');
  await knex.raw(
    "update runs set member_id = service_account_id where initiator_type = 'apiToken' " +
      'and service_account_id is not null',
  );
  await knex.raw(
    'update agent_sessions set member_id = ' +
      '(select t.user_id from api_tokens as t where t.id = agent_sessions.initiator_id) ' +
      "where initiator_type = 'apiToken' and member_id is null",
  );
  await knex.raw('alter table runs drop column service_account_id');
  await knex.schema.dropTableIfExists('usage_run_person_months');
  await buildLevels(knex, false);
}
