import { isPostgres } from '../db/connect.js';
import type { Executor } from '../db/unit-of-work.js';
import type { BucketSpan } from './series-buckets.js';
import type { FilterParams, UsageFilter, UsageGroupRecord } from './records.js';
import { groupSums, labelled, type UsageGroupBy } from './groupings.js';
import { RUN_SUMS } from './rollup-levels.js';
import type { UsageStore } from './store.js';
import type { TeamSums } from './team-sums.js';

export type SeriesGroupBy = UsageGroupBy;

/** The sums of one group in one bucket; sums come back as numbers or numeric strings depending on the engine. */
export interface SeriesRowRecord extends UsageGroupRecord {
  /** The bucket's first day, `YYYY-MM-DD`. */
  bucket: string;
}

/** What a series reads: the organization, the window (both bounds), the folder, the bucket and the grouping. */
export interface SeriesQuery {
  organizationId: string;
  filter: UsageFilter & { from: string; to: string };
  bucket: BucketSpan;
  groupBy: SeriesGroupBy;
}

/**
 * The usage series' statements: the groups of a window, and the sums per bucket and group. Both
 * read the report's run sums per day (whole days from a daily rollup level, the window's partial
 * edge days from raw runs), or the team sums for teams, so a series adds up to the report over
 * the same window.
 */
export class SeriesStore {
  /** The report's store, whose window split and folder filter the series applies as the report does. */
  constructor(
    readonly usage: UsageStore,
    readonly teams: TeamSums,
  ) {}

  /** The distinct group keys of the window, at most `limit` of them (enough to tell "too many"). */
  async groupKeys(db: Executor, query: SeriesQuery, limit: number): Promise<string[]> {
    const sums = groupSums(db, this, this.params(query), query.groupBy, false);
    if (!sums) return [];
    const rows = await db.from(sums.as('g')).select('g.key').limit(limit);
    return (rows as { key: string }[]).map((r) => r.key);
  }

  /** Sums per bucket and group, in one statement; each group labelled (groupings.ts). */
  async sums(db: Executor, query: SeriesQuery): Promise<SeriesRowRecord[]> {
    const days = groupSums(db, this, this.params(query), query.groupBy, true);
    if (!days) return [];
    const bucket = bucketExpression(db, query.bucket);
    const sums = db
      .from(days.as('d'))
      .groupByRaw(`${bucket}, d.key`)
      .select(db.raw(`${bucket} as bucket`), 'd.key', ...RUN_SUMS.map((m) => db.raw(`sum(d.${m}) as ${m}`)));
    return labelled(db, query.organizationId, query.groupBy, sums, ['bucket']);
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
