import type { Knex } from 'knex';
import type { Schema } from '../api/types.js';
import { isPostgres } from '../db/connect.js';
import type { Executor } from '../db/unit-of-work.js';
import type { BucketSpan } from './series-buckets.js';
import type { UsageFilter, UsageStore } from './store.js';

export type SeriesGroupBy = Schema<'UsageSeriesGroupBy'>;

/** The sums of one group in one bucket; sums come back as numbers or numeric strings depending on the engine. */
export interface SeriesRowRecord {
  /** The bucket's first day, `YYYY-MM-DD`. */
  bucket: string;
  key: string;
  label: string;
  run_count: number | string;
  input_tokens: number | string | null;
  output_tokens: number | string | null;
  cost_usd: number | string | null;
}

/** What a series reads: the organization, the window (both bounds), the folder, the bucket and the grouping. */
export interface SeriesQuery {
  organizationId: string;
  filter: UsageFilter & { from: string; to: string };
  bucket: BucketSpan;
  groupBy: SeriesGroupBy;
}

/** The column a grouping reads: the run's project, or what its session names. */
const GROUP_COLUMN: Record<SeriesGroupBy, string> = {
  project: 'r.project_id',
  model: 's.model',
  provider: 's.provider',
  role: 's.role_id',
};

/**
 * The usage series' statements over the raw runs: the groups of a window, and the sums per bucket
 * and group. Buckets are computed from the run's UTC day (`at` is stored as UTC ISO 8601 text).
 */
export class SeriesStore {
  /** The report's store, whose window and folder filter the series applies as the report does. */
  constructor(private readonly usage: UsageStore) {}

  /** The distinct group keys of the window, at most `limit` of them (enough to tell "too many"). */
  async groupKeys(db: Executor, query: SeriesQuery, limit: number): Promise<string[]> {
    const rows = await this.runs(db, query)
      .groupBy(GROUP_COLUMN[query.groupBy])
      .select(db.raw(`${GROUP_COLUMN[query.groupBy]} as ${db.client.wrapIdentifier('key')}`))
      .limit(limit);
    return (rows as { key: string }[]).map((r) => r.key);
  }

  /** Sums per bucket and group, in one statement; each group labelled (project name, role label). */
  async sums(db: Executor, query: SeriesQuery): Promise<SeriesRowRecord[]> {
    const column = GROUP_COLUMN[query.groupBy];
    const bucket = bucketExpression(db, query.bucket);
    const sums = this.runs(db, query)
      .groupByRaw(`${bucket}, ${column}`)
      .select(
        db.raw(`${bucket} as bucket`),
        db.raw(`${column} as ${db.client.wrapIdentifier('key')}`),
        db.raw('count(*) as run_count'),
        db.raw('sum(r.input_tokens) as input_tokens'),
        db.raw('sum(r.output_tokens) as output_tokens'),
        db.raw('sum(r.cost_usd) as cost_usd'),
      );
    const rows = db.from(sums.as('g'));
    if (query.groupBy === 'project') {
      return rows
        .join('projects as p', (on) => on.on('p.id', 'g.key').andOnVal('p.organization_id', '=', query.organizationId))
        .select('g.*', 'p.name as label');
    }
    if (query.groupBy === 'role') {
      return rows
        .leftJoin('agent_roles as ar', (on) =>
          on.on('ar.role_id', 'g.key').andOnVal('ar.organization_id', '=', query.organizationId),
        )
        .select('g.*', db.raw('coalesce(ar.label, g.key) as label'));
    }
    return rows.select('g.*', 'g.key as label');
  }

  /** The organization's runs under the filter, joined to their sessions when the grouping reads them. */
  private runs(db: Executor, query: SeriesQuery): Knex.QueryBuilder {
    const runs = db('runs as r').where('r.organization_id', query.organizationId);
    if (query.groupBy !== 'project') runs.join('agent_sessions as s', 's.id', 'r.session_id');
    this.usage.applyFilter(db, runs, 'r', { organizationId: query.organizationId, ...query.filter });
    return runs;
  }
}

/**
 * The SQL naming a run's bucket by its first day, `YYYY-MM-DD`: the day itself, the Monday on or
 * before it, or the first of its month.
 */
function bucketExpression(db: Executor, span: BucketSpan): string {
  const day = 'substr(r.at, 1, 10)';
  if (span === 'day') return day;
  if (span === 'month') return `substr(r.at, 1, 7) || '-01'`;
  return isPostgres(db)
    ? `to_char(cast(${day} as date) - (extract(isodow from cast(${day} as date))::int - 1), 'YYYY-MM-DD')`
    : `date(${day}, '-6 days', 'weekday 1')`;
}
