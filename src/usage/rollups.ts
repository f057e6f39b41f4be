import type { Knex } from 'knex';
import { isPostgres } from '../db/connect.js';
import type { Executor } from '../db/unit-of-work.js';
import type { FactRecord, RunRecord } from './store.js';
import { costMicros, costMicrosSql } from './cost-micros.js';
import {
  dailyLevel,
  FACT_LEVELS,
  FACT_SUMS,
  RUN_LEVELS,
  RUN_SUMS,
  type RollupLevel,
  SESSION_KEYS,
} from './rollup-levels.js';
import { dayOf } from './window-split.js';

/**
 * Recomputes an organization's rollups from its raw runs and facts: what the migrations build and
 * `hub usage rebuild-rollups` repairs. The daily levels are summed from the raw rows (the
 * provider, role and model are the session's), every other level from its family's daily one.
 */
export async function rebuildRollups(db: Executor | Knex, organizationId: string): Promise<void> {
  await rebuildDailyRollups(db, organizationId);
  await rebuildNarrowRollups(db, organizationId);
}

/** The daily levels of runs and facts, from the raw rows (all the first rollup migration built). */
export async function rebuildDailyRollups(db: Executor | Knex, organizationId: string): Promise<void> {
  const runDays = dailyLevel(RUN_LEVELS).table;
  const factDays = dailyLevel(FACT_LEVELS).table;
  await db(runDays).where('organization_id', organizationId).delete();
  await db(factDays).where('organization_id', organizationId).delete();
  const runs = db('runs as r')
    .join('agent_sessions as s', 's.id', 'r.session_id')
    .where('r.organization_id', organizationId)
    .groupByRaw('substr(r.at, 1, 10)')
    .groupBy('r.project_id', 's.provider', 's.role_id', 's.model')
    .select(
      db.raw('? as organization_id', [organizationId]),
      db.raw('substr(r.at, 1, 10) as day'),
      'r.project_id',
      's.provider',
      's.role_id',
      's.model',
      db.raw('count(*) as run_count'),
      db.raw('count(r.cost_usd) as runs_with_cost'),
      db.raw('coalesce(sum(r.input_tokens), 0) as input_tokens'),
      db.raw('coalesce(sum(r.output_tokens), 0) as output_tokens'),
      db.raw(`coalesce(sum(${costMicrosSql(db, 'r.cost_usd')}), 0) as cost_micros`),
    );
  await insertSelect(db, runDays, ['organization_id', 'day', 'project_id', ...SESSION_KEYS, ...RUN_SUMS], runs);
  const facts = db('run_facts as f')
    .join('runs as r', 'r.id', 'f.run_id')
    .join('agent_sessions as s', 's.id', 'r.session_id')
    .where('f.organization_id', organizationId)
    .groupByRaw("substr(f.at, 1, 10), coalesce(f.capability_id, '')")
    .groupBy('f.project_id', 's.provider', 's.role_id', 's.model', 'f.kind')
    .select(
      db.raw('? as organization_id', [organizationId]),
      db.raw('substr(f.at, 1, 10) as day'),
      'f.project_id',
      's.provider',
      's.role_id',
      's.model',
      'f.kind',
      db.raw("coalesce(f.capability_id, '') as capability_id"),
      db.raw('count(*) as fact_count'),
      db.raw('count(f.cost_usd) as facts_with_cost'),
      db.raw('coalesce(sum(f.quantity), 0) as quantity'),
      db.raw(`coalesce(sum(${costMicrosSql(db, 'f.cost_usd')}), 0) as cost_micros`),
    );
  await insertSelect(
    db,
    factDays,
    ['organization_id', 'day', 'project_id', ...SESSION_KEYS, 'kind', 'capability_id', ...FACT_SUMS],
    facts,
  );
}

/** Every level but the daily ones, summed from its family's daily level. */
export async function rebuildNarrowRollups(db: Executor | Knex, organizationId: string): Promise<void> {
  for (const [levels, sums] of [
    [RUN_LEVELS, RUN_SUMS],
    [FACT_LEVELS, FACT_SUMS],
  ] as const) {
    const daily = dailyLevel(levels);
    for (const level of levels.filter((l) => l !== daily)) {
      await db(level.table).where('organization_id', organizationId).delete();
      const period = level.grain === 'month' ? 'substr(d.day, 1, 7)' : 'd.day';
      const select = db(`${daily.table} as d`)
        .where('d.organization_id', organizationId)
        .groupByRaw([period, ...level.keys.map((k) => `d.${k}`)].join(', '))
        .select(
          db.raw('? as organization_id', [organizationId]),
          db.raw(`${period} as ${level.grain}`),
          ...level.keys.map((k) => `d.${k}`),
          ...sums.map((m) => db.raw(`sum(d.${m}) as ${m}`)),
        );
      await insertSelect(db, level.table, ['organization_id', level.grain, ...level.keys, ...sums], select);
    }
  }
}

/** `insert into table (columns) select …`, the columns named in the select's order. */
async function insertSelect(db: Executor | Knex, table: string, columns: string[], select: Knex.QueryBuilder) {
  const { sql, bindings } = select.toSQL();
  await db.raw(`insert into ${table} (${columns.join(', ')}) ${sql}`, [...bindings]);
}

/** Sums of one session's runs (or facts of one kind and capability) on one day. */
interface Tally {
  session_id: string;
  project_id: string;
  day: string;
  kind?: string;
  capability_id?: string;
  count: number;
  with_cost: number;
  a: number;
  b: number;
  cost_micros: number;
}

/** Rows per upsert statement. */
const UPSERT_CHUNK = 5000;

/**
 * What an ingest adds to the rollups: its runs and facts summed per session and day as they are
 * read, then added to the stored rows in its transaction (an upsert per table, no re-aggregation
 * of the days' raw rows). The session's stored provider, role and model key the rollup rows, as
 * in rebuildRollups.
 */
export class RollupTally {
  private readonly runs = new Map<string, Tally>();
  private readonly facts = new Map<string, Tally>();

  add(run: RunRecord, facts: FactRecord[]): void {
    const day = dayOf(run.at);
    const base = { session_id: run.session_id, project_id: run.project_id, day };
    count(this.runs, `${run.session_id}\n${day}`, base, run.cost_usd, run.input_tokens, run.output_tokens);
    for (const fact of facts) {
      const capability = fact.capability_id ?? '';
      const key = `${run.session_id}\n${day}\n${fact.kind}\n${capability}`;
      count(this.facts, key, { ...base, kind: fact.kind, capability_id: capability }, fact.cost_usd, fact.quantity, 0);
    }
  }

  /** Adds the tallies to every level of the rollups, a statement per level and 5,000 tallies. */
  async write(trx: Executor, organizationId: string): Promise<void> {
    const pg = isPostgres(trx);
    const families = [
      { levels: RUN_LEVELS, sums: RUN_SUMS, extraKey: [], amounts: 2, tallies: [...this.runs.values()] },
      {
        levels: FACT_LEVELS,
        sums: FACT_SUMS,
        extraKey: ['kind', 'capability_id'],
        amounts: 1,
        tallies: [...this.facts.values()],
      },
    ];
    for (const { levels, sums, extraKey, amounts, tallies } of families) {
      for (let i = 0; i < tallies.length; i += UPSERT_CHUNK) {
        const json = JSON.stringify(tallies.slice(i, i + UPSERT_CHUNK));
        for (const level of levels) {
          await trx.raw(upsertSql(pg, level, sums, extraKey, amounts), [organizationId, json]);
        }
      }
    }
  }
}

function count(
  into: Map<string, Tally>,
  key: string,
  base: Omit<Tally, 'count' | 'with_cost' | 'a' | 'b' | 'cost_micros'>,
  costUsd: number | null,
  a: number,
  b: number,
): void {
  let tally = into.get(key);
  if (!tally) {
    tally = { ...base, count: 0, with_cost: 0, a: 0, b: 0, cost_micros: 0 };
    into.set(key, tally);
  }
  tally.count += 1;
  tally.a += a;
  tally.b += b;
  if (costUsd !== null) {
    tally.with_cost += 1;
    tally.cost_micros += costMicros(costUsd);
  }
}

/**
 * `insert … select … on conflict do update` adding a JSON array of tallies, grouped by a level's
 * day or month and keys, to that level's table; joined to their sessions when the level is keyed
 * by what a session names. `sums` name the table's count, count with cost, its `amounts` amounts
 * (from the tally's a and b) and cost_micros.
 */
function upsertSql(
  pg: boolean,
  level: RollupLevel,
  sums: readonly string[],
  extraKey: string[],
  amounts: number,
): string {
  const fields = ['session_id', 'project_id', 'day', ...extraKey];
  const numbers = ['count', 'with_cost', 'a', 'b', 'cost_micros'];
  const source = pg
    ? `json_to_recordset(?::json) as v(${[...fields.map((f) => `${f} text`), ...numbers.map((n) => `${n} bigint`)]})`
    : `(select ${[...fields, ...numbers].map((f) => `value ->> '${f}' as ${f}`).join(', ')} from json_each(?)) as v`;
  const values = [
    'sum(v.count)',
    'sum(v.with_cost)',
    'sum(v.a)',
    ...(amounts === 2 ? ['sum(v.b)'] : []),
    'sum(v.cost_micros)',
  ];
  const bySession = level.keys.some((k) => SESSION_KEYS.includes(k));
  const key = [
    level.grain === 'month' ? 'substr(v.day, 1, 7)' : 'v.day',
    ...level.keys.map((k) => (SESSION_KEYS.includes(k) ? `s.${k}` : `v.${k}`)),
  ];
  const conflict = ['organization_id', level.grain, ...level.keys];
  // SQLite needs a WHERE before ON CONFLICT in an INSERT … SELECT, or it reads ON as a join's.
  const organization = pg ? '?::text' : '?';
  return (
    `insert into ${level.table} (${[...conflict, ...sums].join(', ')}) ` +
    `select ${organization}, ${[...key, ...values].join(', ')} from ${source} ` +
    (bySession ? 'join agent_sessions s on s.id = v.session_id ' : '') +
    `where true group by ${key.join(', ')} ` +
    `on conflict (${conflict.join(', ')}) do update set ` +
    sums.map((c) => `${c} = ${level.table}.${c} + excluded.${c}`).join(', ')
  );
}
