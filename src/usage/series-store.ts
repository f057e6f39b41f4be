import type { Schema } from '../api/types.js';
import { isPostgres } from '../db/connect.js';
import type { Executor } from '../db/unit-of-work.js';
import type { BucketSpan } from './series-buckets.js';
import type { FilterParams, UsageFilter } from './records.js';
import type { RunRollupKey, UsageStore } from './store.js';

export type SeriesGroupBy = Schema<'UsageSeriesGroupBy'>;

/** The sums of one group in one bucket; sums come back as numbers or numeric strings depending on the engine. */
export interface SeriesRowRecord {
  /** The bucket's first day, `YYYY-MM-DD`. */
  bucket: string;
  key: string;
  label: string;
  run_count: number | string;
  runs_with_cost: number | string;
  input_tokens: number | string | null;
  output_tokens: number | string | null;
  /** Whole micro-dollars (cost-micros.ts). */
  cost_micros: number | string | null;
}

/** What a series reads: the organization, the window (both bounds), the folder, the bucket and the grouping. */
export interface SeriesQuery {
  organizationId: string;
  filter: UsageFilter & { from: string; to: string };
  bucket: BucketSpan;
  groupBy: SeriesGroupBy;
}

/** The run rollup's key a grouping reads: the run's project, or its own provider, model or role. */
const GROUP_KEY: Record<SeriesGroupBy, RunRollupKey> = {
  project: 'project_id',
  model: 'model',
  provider: 'provider',
  role: 'role_id',
};

/**
 * The usage series' statements: the groups of a window, and the sums per bucket and group. Both
 * read the report's run sums per day (whole days from a daily rollup level, the window's partial
 * edge days from raw runs), so a series adds up to the report over the same window.
 */
export class SeriesStore {
  /** The report's store, whose window split and folder filter the series applies as the report does. */
  constructor(private readonly usage: UsageStore) {}

  /** The distinct group keys of the window, at most `limit` of them (enough to tell "too many"). */
  async groupKeys(db: Executor, query: SeriesQuery, limit: number): Promise<string[]> {
    const key = GROUP_KEY[query.groupBy];
    const sums = this.usage.runSums(db, this.params(query), [key]);
    if (!sums) return [];
    const rows = await db.from(sums.as('g')).select(`g.${key} as key`).limit(limit);
    return (rows as { key: string }[]).map((r) => r.key);
  }

  /** Sums per bucket and group, in one statement; each group labelled (project name, role label). */
  async sums(db: Executor, query: SeriesQuery): Promise<SeriesRowRecord[]> {
    const key = GROUP_KEY[query.groupBy];
    const days = this.usage.runSums(db, this.params(query), ['day', key]);
    if (!days) return [];
    const bucket = bucketExpression(db, query.bucket);
    const sums = db
      .from(days.as('d'))
      .groupByRaw(`${bucket}, d.${key}`)
      .select(
        db.raw(`${bucket} as bucket`),
        db.raw(`d.${key} as ${db.client.wrapIdentifier('key')}`),
        db.raw('sum(d.run_count) as run_count'),
        db.raw('sum(d.runs_with_cost) as runs_with_cost'),
        db.raw('sum(d.input_tokens) as input_tokens'),
        db.raw('sum(d.output_tokens) as output_tokens'),
        db.raw('sum(d.cost_micros) as cost_micros'),
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

  private params(query: SeriesQuery): FilterParams {
    return { organizationId: query.organizationId, ...query.filter };
  }
}

/**
 * The SQL naming a day's bucket (`d.day`, `YYYY-MM-DD`) by its first day: the day itself, the
 * Monday on or before it, or the first of its month.
 */
function bucketExpression(db: Executor, span: BucketSpan): string {
  const day = 'd.day';
  if (span === 'day') return day;
  if (span === 'month') return `substr(${day}, 1, 7) || '-01'`;
  return isPostgres(db)
    ? `to_char(cast(${day} as date) - (extract(isodow from cast(${day} as date))::int - 1), 'YYYY-MM-DD')`
    : `date(${day}, '-6 days', 'weekday 1')`;
}
