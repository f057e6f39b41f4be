import type { Knex } from 'knex';
import { isPostgres } from '../db/connect.js';
import type { Executor } from '../db/unit-of-work.js';
import { costMicrosSql } from './cost-micros.js';
import {
  AGENT_KEYS,
  FACT_LEVELS,
  FACT_SUMS,
  RAW_RUN_KEY,
  RUN_LEVELS,
  RUN_SUMS,
  type RollupLevel,
  type RunRollupKey,
} from './rollup-levels.js';
import type { RollupTally } from './rollup-tally.js';

/** Rows per upsert statement. */
const UPSERT_CHUNK = 5000;

/** The rollup levels' writes: an ingest's tallies added to them, and every level rebuilt from the raw rows. */
export class RollupStore {
  /**
   * Recomputes an organization's rollups from its raw runs and facts: what `hub usage
   * rebuild-rollups` repairs. The daily levels are summed from the raw rows (a fact's provider,
   * role and model are its run's), every other level from the daily level it names.
   */
  async rebuild(db: Executor | Knex, organizationId: string): Promise<void> {
    await this.rebuildDaily(db, organizationId);
    await this.rebuildNarrow(db, organizationId);
  }

  /**
   * Adds an ingest's tallies to every level of the rollups: each level's rows summed by the tally,
   * then upserted.
   */
  async add(trx: Executor, organizationId: string, tally: RollupTally): Promise<void> {
    const pg = isPostgres(trx);
    for (const [family, levels, sums] of [
      ['runs', RUN_LEVELS, RUN_SUMS],
      ['facts', FACT_LEVELS, FACT_SUMS],
    ] as const) {
      for (const level of levels) {
        const rows = tally.rows(family, level);
        const sql = upsertSql(pg, level, sums);
        for (let i = 0; i < rows.length; i += UPSERT_CHUNK) {
          await trx.raw(sql, [organizationId, JSON.stringify(rows.slice(i, i + UPSERT_CHUNK))]);
        }
      }
    }
  }

  /** The levels summed from the raw rows (each family's daily levels), from the raw rows. */
  private async rebuildDaily(db: Executor | Knex, organizationId: string): Promise<void> {
    for (const level of RUN_LEVELS.filter((l) => l.from === undefined)) {
      await db(level.table).where('organization_id', organizationId).delete();
      const keys = level.keys.map((k) => RAW_RUN_KEY[k as RunRollupKey]);
      const runs = db('runs as r')
        .where('r.organization_id', organizationId)
        .groupByRaw(['substr(r.at, 1, 10)', ...keys].join(', '))
        .select(
          db.raw('? as organization_id', [organizationId]),
          db.raw('substr(r.at, 1, 10) as day'),
          ...keys.map((expr, i) => db.raw(`${expr} as ${level.keys[i]}`)),
          db.raw('count(*) as run_count'),
          db.raw('count(r.cost_usd) as runs_with_cost'),
          db.raw('coalesce(sum(r.input_tokens), 0) as input_tokens'),
          db.raw('coalesce(sum(r.output_tokens), 0) as output_tokens'),
          db.raw(`coalesce(sum(${costMicrosSql(db, 'r.cost_usd')}), 0) as cost_micros`),
        );
      await insertSelect(db, level.table, ['organization_id', 'day', ...level.keys, ...RUN_SUMS], runs);
    }
    const factDays = FACT_LEVELS.find((l) => l.from === undefined)!.table;
    await db(factDays).where('organization_id', organizationId).delete();
    // A fact's agent keys are its run's.
    const agentKeys = AGENT_KEYS.map((k) => `r.${k}`);
    const facts = db('run_facts as f')
      .join('runs as r', 'r.id', 'f.run_id')
      .where('f.organization_id', organizationId)
      .groupByRaw("substr(f.at, 1, 10), coalesce(f.capability_id, '')")
      .groupBy('f.project_id', ...agentKeys, 'f.kind')
      .select(
        db.raw('? as organization_id', [organizationId]),
        db.raw('substr(f.at, 1, 10) as day'),
        'f.project_id',
        ...agentKeys,
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
      ['organization_id', 'day', 'project_id', ...AGENT_KEYS, 'kind', 'capability_id', ...FACT_SUMS],
      facts,
    );
  }

  /** Every level summed from a daily level, from that level. */
  private async rebuildNarrow(db: Executor | Knex, organizationId: string): Promise<void> {
    for (const [levels, sums] of [
      [RUN_LEVELS, RUN_SUMS],
      [FACT_LEVELS, FACT_SUMS],
    ] as const) {
      for (const level of levels) {
        if (level.from === undefined) continue;
        await db(level.table).where('organization_id', organizationId).delete();
        const period = level.grain === 'month' ? 'substr(d.day, 1, 7)' : 'd.day';
        const select = db(`${level.from} as d`)
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
}

/** `insert into table (columns) select …`, the columns named in the select's order. */
async function insertSelect(db: Executor | Knex, table: string, columns: string[], select: Knex.QueryBuilder) {
  const { sql, bindings } = select.toSQL();
  await db.raw(`insert into ${table} (${columns.join(', ')}) ${sql}`, [...bindings]);
}

/**
 * `insert … select … on conflict do update` adding a JSON array of a level's rows (each key once,
 * each row an array in RollupTally.rows' order) to its table for an organization: one
 * JSON parameter reads faster than thousands of bound values, on both engines.
 */
function upsertSql(pg: boolean, level: RollupLevel, sums: readonly string[]): string {
  const key = ['organization_id', level.grain, ...level.keys];
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
