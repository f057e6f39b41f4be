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
  type AgentKeys,
  type RollupLevel,
  SESSION_KEYS,
} from './rollup-levels.js';
import { dayOf, monthOf } from './window-split.js';

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

type Measure = 'count' | 'with_cost' | 'a' | 'b' | 'cost_micros';
/** The part of a tally each of a family's sums (RUN_SUMS, FACT_SUMS) adds, in their order. */
const RUN_MEASURES: readonly Measure[] = ['count', 'with_cost', 'a', 'b', 'cost_micros'];
const FACT_MEASURES: readonly Measure[] = ['count', 'with_cost', 'a', 'cost_micros'];

/** Rows per upsert statement. */
const UPSERT_CHUNK = 5000;

type AgentKey = (typeof SESSION_KEYS)[number];
/** The keys a tally names itself (its project and agent are its session's). */
type TallyKey = 'kind' | 'capability_id';
const TALLY_OWN_KEYS: readonly string[] = ['kind', 'capability_id'];
const isAgentKey = (key: string): key is AgentKey => (SESSION_KEYS as readonly string[]).includes(key);

/**
 * What an ingest adds to the rollups: its runs and facts summed per session and day as they are
 * read; once they are stored, summed per row of every level and added to the stored rows in its
 * transaction (no re-aggregation of the days' raw rows). The session's stored provider, role and
 * model key the rollup rows, as in rebuildRollups.
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

  /**
   * Adds the tallies to every level of the rollups: each level's rows summed here, then upserted.
   * `agents` holds every tallied session's stored agent keys (the ingest read or created each).
   */
  async write(trx: Executor, organizationId: string, agents: ReadonlyMap<string, AgentKeys>): Promise<void> {
    const pg = isPostgres(trx);
    for (const [levels, sums, measures, tallies] of [
      [RUN_LEVELS, RUN_SUMS, RUN_MEASURES, this.runs],
      [FACT_LEVELS, FACT_SUMS, FACT_MEASURES, this.facts],
    ] as const) {
      for (const level of levels) {
        const rows = levelRows(level, measures, tallies.values(), agents);
        const sql = upsertSql(pg, level, sums);
        for (let i = 0; i < rows.length; i += UPSERT_CHUNK) {
          await trx.raw(sql, [organizationId, JSON.stringify(rows.slice(i, i + UPSERT_CHUNK))]);
        }
      }
    }
  }
}

/**
 * Tallies summed into one level's rows, each an array of its day or month, then the level's keys
 * its session names (project, agent), then the keys its tally names (kind, capability), then the
 * family's sums: upsertSql's column order.
 */
function levelRows(
  level: RollupLevel,
  measures: readonly Measure[],
  tallies: Iterable<Tally>,
  agents: ReadonlyMap<string, AgentKeys>,
): Array<Array<string | number>> {
  const { bySession, byTally } = keysOf(level);
  // A session's part of the key is built once (one string per session, so lookups reuse its hash).
  const sessionParts = new Map<string, { id: string; values: string[] }>();
  const rows = new Map<string, Map<string, Array<string | number>>>();
  for (const tally of tallies) {
    let part = sessionParts.get(tally.session_id);
    if (!part) {
      const agent = agents.get(tally.session_id);
      if (!agent) throw new Error(`session ${tally.session_id} of an ingest is not stored`);
      const values = bySession.map((k) => (isAgentKey(k) ? agent[k] : tally.project_id));
      part = { id: values.join('\n'), values };
      sessionParts.set(tally.session_id, part);
    }
    const period = level.grain === 'month' ? monthOf(tally.day) : tally.day;
    const own = byTally.map((k) => String(tally[k as TallyKey]));
    const id = own.length === 0 ? part.id : `${part.id}\n${own.join('\n')}`;
    let inPeriod = rows.get(period);
    if (!inPeriod) {
      inPeriod = new Map();
      rows.set(period, inPeriod);
    }
    let row = inPeriod.get(id);
    if (!row) {
      row = [period, ...part.values, ...own, ...measures.map(() => 0)];
      inPeriod.set(id, row);
    }
    const first = row.length - measures.length;
    for (let m = 0; m < measures.length; m += 1) row[first + m] = (row[first + m] as number) + tally[measures[m]!];
  }
  return [...rows.values()].flatMap((inPeriod) => [...inPeriod.values()]);
}

/** A level's keys its session names and those its tally names, in the level's order. */
const keysOf = (level: RollupLevel) => ({
  bySession: level.keys.filter((k) => !TALLY_OWN_KEYS.includes(k)),
  byTally: level.keys.filter((k) => TALLY_OWN_KEYS.includes(k)),
});

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
 * `insert … select … on conflict do update` adding a JSON array of a level's rows (each key once,
 * each row an array in levelRows order) to its table for an organization: one
 * JSON parameter reads faster than thousands of bound values, on both engines.
 */
function upsertSql(pg: boolean, level: RollupLevel, sums: readonly string[]): string {
  const { bySession, byTally } = keysOf(level);
  const key = ['organization_id', level.grain, ...bySession, ...byTally];
  const columns = [...key, ...sums];
  const positions = columns.slice(1).map((column, i) => {
    const value = pg ? `e ->> ${i}` : `e.value ->> ${i}`;
    return pg && sums.includes(column) ? `(${value})::bigint` : value;
  });
  // SQLite needs a WHERE before ON CONFLICT in an INSERT … SELECT, or it reads ON as a join's.
  return (
    `insert into ${level.table} (${columns.join(', ')}) select ${pg ? '?::text' : '?'}, ${positions.join(', ')} ` +
    `from ${pg ? 'json_array_elements(?::json) as e' : 'json_each(?) as e'} where true ` +
    `on conflict (${key.join(', ')}) do update set ` +
    sums.map((c) => `${c} = ${level.table}.${c} + excluded.${c}`).join(', ')
  );
}
