import type { Knex } from 'knex';
import { isPostgres } from '../connect.js';

const RUN_SUMS = ['run_count', 'runs_with_cost', 'input_tokens', 'output_tokens', 'cost_micros'];
const FACT_SUMS = ['fact_count', 'facts_with_cost', 'quantity', 'cost_micros'];

/** The daily levels' key (as migration 20261128090000 made it), facts' with kind and capability after it. */
const DAILY_KEY: Array<[string, number]> = [
  ['organization_id', 36],
  ['day', 10],
  ['project_id', 36],
  ['provider', 64],
  ['role_id', 64],
  ['model', 200],
];

/**
 * Each rollup table's key columns, with their lengths, in the order of its primary key. The monthly
 * levels per project lead with the project: a folder's or a project's months are then a few short
 * ranges, and a whole organization's are a few thousand rows whatever their order.
 */
const TABLES: Record<string, { key: Array<[string, number]>; sums: string[] }> = {
  usage_run_days: { key: DAILY_KEY, sums: RUN_SUMS },
  usage_run_agent_days: {
    key: [
      ['organization_id', 36],
      ['day', 10],
      ['provider', 64],
      ['role_id', 64],
      ['model', 200],
    ],
    sums: RUN_SUMS,
  },
  usage_run_months: {
    key: [
      ['organization_id', 36],
      ['project_id', 36],
      ['month', 7],
    ],
    sums: RUN_SUMS,
  },
  usage_fact_days: { key: [...DAILY_KEY, ['kind', 16], ['capability_id', 63]], sums: FACT_SUMS },
  usage_fact_months: {
    key: [
      ['organization_id', 36],
      ['project_id', 36],
      ['month', 7],
      ['kind', 16],
      ['capability_id', 63],
    ],
    sums: FACT_SUMS,
  },
  usage_fact_org_months: {
    key: [
      ['organization_id', 36],
      ['month', 7],
      ['kind', 16],
      ['capability_id', 63],
    ],
    sums: FACT_SUMS,
  },
};
const DAILY = ['usage_run_days', 'usage_fact_days'];

/** Each narrow level, summed from its family's daily level: its grain and its keys besides the organization. */
const NARROW: Array<{ table: string; from: string; grain: 'day' | 'month'; keys: string[] }> = [
  { table: 'usage_run_months', from: 'usage_run_days', grain: 'month', keys: ['project_id'] },
  { table: 'usage_run_agent_days', from: 'usage_run_days', grain: 'day', keys: ['provider', 'role_id', 'model'] },
  { table: 'usage_fact_org_months', from: 'usage_fact_days', grain: 'month', keys: ['kind', 'capability_id'] },
  {
    table: 'usage_fact_months',
    from: 'usage_fact_days',
    grain: 'month',
    keys: ['project_id', 'kind', 'capability_id'],
  },
];

/** `insert … select` of one organization's rows of a narrow level from its daily level. */
function narrowFromDaily({ table, from, grain, keys }: (typeof NARROW)[number]): string {
  const period = grain === 'month' ? 'substr(d.day, 1, 7)' : 'd.day';
  const { sums } = TABLES[table]!;
  return (
    `insert into ${table} (organization_id, ${grain}, ${[...keys, ...sums].join(', ')}) ` +
    `select ? as organization_id, ${period} as ${grain}, ${keys.map((k) => `d.${k}`).join(', ')}, ` +
    `${sums.map((m) => `sum(d.${m}) as ${m}`).join(', ')} from ${from} as d where d.organization_id = ? ` +
    `group by ${[period, ...keys.map((k) => `d.${k}`)].join(', ')}`
  );
}

/**
 * The narrow levels of the usage rollups: runs per project and UTC
 * month, runs per UTC day and agent (provider, role, model), facts per project, kind, capability
 * and UTC month, and facts per kind, capability and UTC month. A year's report or breakdown then
 * reads thousands of rows instead of the daily levels' hundreds of thousands. Built here from the
 * daily levels.
 *
 * On SQLite every rollup table is stored WITHOUT ROWID, the daily ones rebuilt so: a rollup is
 * read and upserted only by its primary key, which then holds the sums too, so a range of days
 * is one ordered read instead of an index walk with a table lookup per row, and an upsert writes
 * one b-tree instead of two.
 */
export async function up(knex: Knex): Promise<void> {
  const sqlite = !isPostgres(knex);
  for (const table of DAILY) {
    if (sqlite) await knex.raw(`alter table ${table} rename to ${table}_rowid`);
  }
  for (const [table, { key, sums }] of Object.entries(TABLES)) {
    if (!sqlite && DAILY.includes(table)) continue;
    const columns = [
      ...key.map(([name, length]) => `${name} varchar(${length}) not null`),
      ...sums.map((s) => `${s} bigint not null`),
    ];
    const primary = `constraint ${table}_pkey primary key (${key.map(([name]) => name).join(', ')})`;
    await knex.raw(`create table ${table} (${[...columns, primary].join(', ')})${sqlite ? ' without rowid' : ''}`);
  }
  if (sqlite) {
    for (const table of DAILY) {
      const { key, sums } = TABLES[table]!;
      const columns = [...key.map(([name]) => name), ...sums].join(', ');
      await knex.raw(`insert into ${table} (${columns}) select ${columns} from ${table}_rowid`);
      await knex.raw(`drop table ${table}_rowid`);
    }
  }
  const orgs = await knex('organizations').select<{ id: string }[]>('id');
  for (const { id } of orgs) {
    for (const level of NARROW) await knex.raw(narrowFromDaily(level), [id, id]);
  }
}

/** Drops the narrow levels; the daily ones stay as they are. */
export async function down(knex: Knex): Promise<void> {
  for (const table of Object.keys(TABLES).filter((t) => !DAILY.includes(t))) await knex.schema.dropTable(table);
}
