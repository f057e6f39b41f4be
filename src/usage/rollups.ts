import type { Knex } from 'knex';
import { isPostgres } from '../db/connect.js';
import type { Executor } from '../db/unit-of-work.js';
import type { FactRecord, RunRecord } from './store.js';
import { costMicros, costMicrosSql } from './cost-micros.js';
import { dayOf } from './window-split.js';

/** A range of UTC days [fromDay, toDay) as YYYY-MM-DD. */
export interface DayRange {
  fromDay: string;
  toDay: string;
}

const ROLLUP_KEY = ['organization_id', 'day', 'project_id', 'provider', 'role_id', 'model'];
const RUN_SUMS = ['run_count', 'runs_with_cost', 'input_tokens', 'output_tokens', 'cost_micros'];
const FACT_SUMS = ['fact_count', 'facts_with_cost', 'quantity', 'cost_micros'];

/**
 * Recomputes an organization's daily rollups from its raw runs and facts, for the days in `days`
 * or for all of them: what the migration builds and `hub usage rebuild-rollups` repairs. The
 * provider, role and model are the session's.
 */
export async function rebuildRollups(db: Executor | Knex, organizationId: string, days?: DayRange): Promise<void> {
  const inDays = (q: Knex.QueryBuilder, column: string) => {
    if (days) q.where(column, '>=', days.fromDay).where(column, '<', days.toDay);
    return q;
  };
  const inTimes = (q: Knex.QueryBuilder, column: string) => {
    if (days) q.where(column, '>=', `${days.fromDay}T00:00:00.000Z`).where(column, '<', `${days.toDay}T00:00:00.000Z`);
    return q;
  };
  await inDays(db('usage_run_days').where('organization_id', organizationId), 'day').delete();
  await inDays(db('usage_fact_days').where('organization_id', organizationId), 'day').delete();
  const runs = inTimes(
    db('runs as r')
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
      ),
    'r.at',
  );
  await insertSelect(db, 'usage_run_days', [...ROLLUP_KEY, ...RUN_SUMS], runs);
  const facts = inTimes(
    db('run_facts as f')
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
      ),
    'f.at',
  );
  await insertSelect(db, 'usage_fact_days', [...ROLLUP_KEY, 'kind', 'capability_id', ...FACT_SUMS], facts);
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

  async write(trx: Executor, organizationId: string): Promise<void> {
    const pg = isPostgres(trx);
    const runs = upsertSql(pg, 'usage_run_days', RUN_SUMS, [], ['input_tokens', 'output_tokens']);
    const facts = upsertSql(pg, 'usage_fact_days', FACT_SUMS, ['kind', 'capability_id'], ['quantity']);
    for (const [sql, tallies] of [
      [runs, [...this.runs.values()]],
      [facts, [...this.facts.values()]],
    ] as const) {
      for (let i = 0; i < tallies.length; i += UPSERT_CHUNK) {
        await trx.raw(sql, [organizationId, JSON.stringify(tallies.slice(i, i + UPSERT_CHUNK))]);
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
 * `insert … select … on conflict do update` adding a JSON array of tallies, joined to their
 * sessions and grouped by the rollup key, to a rollup table. `sums` name the table's count, count
 * with cost, the one or two amounts (`amounts`, from the tally's a and b) and cost_micros.
 */
function upsertSql(pg: boolean, table: string, sums: string[], extraKey: string[], amounts: string[]): string {
  const fields = ['session_id', 'project_id', 'day', ...extraKey];
  const numbers = ['count', 'with_cost', 'a', 'b', 'cost_micros'];
  const source = pg
    ? `json_to_recordset(?::json) as v(${[...fields.map((f) => `${f} text`), ...numbers.map((n) => `${n} bigint`)]})`
    : `(select ${[...fields, ...numbers].map((f) => `value ->> '${f}' as ${f}`).join(', ')} from json_each(?)) as v`;
  const values = [
    'sum(v.count)',
    'sum(v.with_cost)',
    ...amounts.map((_, i) => `sum(v.${i === 0 ? 'a' : 'b'})`),
    'sum(v.cost_micros)',
  ];
  const key = ['v.day', 'v.project_id', 's.provider', 's.role_id', 's.model', ...extraKey.map((k) => `v.${k}`)];
  const columns = ['organization_id', 'day', 'project_id', 'provider', 'role_id', 'model', ...extraKey, ...sums];
  const conflict = [...ROLLUP_KEY, ...extraKey];
  // SQLite needs a WHERE before ON CONFLICT in an INSERT … SELECT, or it reads ON as a join's.
  const organization = pg ? '?::text' : '?';
  return (
    `insert into ${table} (${columns.join(', ')}) ` +
    `select ${organization}, ${[...key, ...values].join(', ')} from ${source} ` +
    `join agent_sessions s on s.id = v.session_id where true group by ${key.join(', ')} ` +
    `on conflict (${conflict.join(', ')}) do update set ` +
    sums.map((c) => `${c} = ${table}.${c} + excluded.${c}`).join(', ')
  );
}
