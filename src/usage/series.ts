import type { Schema } from '../api/types.js';
import type { UnitOfWork } from '../db/unit-of-work.js';
import { ApiError } from '../errors/api-error.js';
import { COST_MICROS_PER_USD } from './cost-micros.js';
import { byCodeUnits, byName } from '../shared/order.js';
import { listOrder } from '../shared/pagination.js';
import { type BucketSpan, bucketDay, bucketStarts } from './series-buckets.js';
import { GROUPINGS } from './groupings.js';
import type { SeriesGroupBy, SeriesRowRecord, SeriesStore } from './series-store.js';
import type { UsageService } from './service.js';

type SeriesGroup = Schema<'UsageSeriesGroup'>;

/** The most buckets a series answers: a daily series of over a year, a weekly one of years. */
export const MAX_BUCKETS = 400;
/** The most groups a series answers: more than a chart can show, and than a spreadsheet wants. */
export const MAX_GROUPS = 200;

const tooLarge = (message: string) => new ApiError(400, 'series_too_large', message);

/** A bucket's groups by label as people read it, then key. */
const groupOrder = listOrder((group: SeriesGroup) => [group.label, group.key ?? ''], byName, byCodeUnits);

/**
 * The usage series: the runs of a window summed per UTC day, week or month and per project, model,
 * provider or role, in SQL, with every bucket of the window listed (empty ones too). It reads the
 * window and the folder as the report does.
 */
export class UsageSeriesService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly series: SeriesStore,
    private readonly usage: UsageService,
  ) {}

  async get(
    organizationId: string,
    query: {
      from: string;
      to: string;
      bucket?: BucketSpan;
      groupBy?: SeriesGroupBy;
      folderId?: string;
      memberId?: string;
    },
  ): Promise<Schema<'UsageSeries'>> {
    const filter = this.usage.filterOf(query);
    const [from, to] = [filter.from ?? query.from, filter.to ?? query.to];
    const bucket = query.bucket ?? 'day';
    const starts = bucketStarts(new Date(from), new Date(to), bucket, MAX_BUCKETS);
    if (!starts) {
      throw tooLarge(
        `The window holds more than ${MAX_BUCKETS} ${bucket} buckets; at most ${MAX_BUCKETS} are answered.`,
      );
    }
    const seriesQuery = {
      organizationId,
      filter: { ...filter, from, to },
      bucket,
      groupBy: query.groupBy ?? 'project',
    };
    const db = this.uow.reader;
    const keys = await this.series.groupKeys(db, seriesQuery, MAX_GROUPS + 1);
    if (keys.length > MAX_GROUPS) {
      throw tooLarge(
        `The window holds more than ${MAX_GROUPS} groups by ${seriesQuery.groupBy}; ` +
          `at most ${MAX_GROUPS} are answered.`,
      );
    }
    if (keys.length === 0) await this.usage.folderMustExist(organizationId, filter);
    const rows = keys.length === 0 ? [] : await this.series.sums(db, seriesQuery);
    const series = toUsageSeries(starts, rows);
    return GROUPINGS[seriesQuery.groupBy].overlapping ? { ...series, overlapping: true } : series;
  }

  /** The runs a member is accountable for: their report per project, and their series per project. */
  async mine(
    organizationId: string,
    memberId: string,
    query: { from: string; to: string; bucket?: BucketSpan },
  ): Promise<Schema<'MyUsage'>> {
    const series = await this.get(organizationId, { ...query, groupBy: 'project', memberId });
    const { from, to, projects, totals } = await this.usage.report(organizationId, { ...query, memberId });
    return { from: from!, to: to!, projects, totals, series };
  }
}

/** Every bucket, oldest first, each with its groups' sums (none for an empty bucket). */
function toUsageSeries(starts: Date[], rows: SeriesRowRecord[]): Schema<'UsageSeries'> {
  const byBucket = new Map<string, SeriesGroup[]>(starts.map((start) => [bucketDay(start), []]));
  for (const row of rows) byBucket.get(row.bucket)?.push(toSeriesGroup(row));
  return {
    buckets: starts.map((start) => ({
      start: start.toISOString(),
      groups: groupOrder.sorted(byBucket.get(bucketDay(start)) ?? []),
    })),
  };
}

const toSeriesGroup = (r: SeriesRowRecord): SeriesGroup => ({
  key: r.key,
  label: r.label,
  runCount: Number(r.run_count),
  inputTokens: Number(r.input_tokens ?? 0),
  outputTokens: Number(r.output_tokens ?? 0),
  costUsd: Number(r.runs_with_cost) === 0 ? null : Number(r.cost_micros ?? 0) / COST_MICROS_PER_USD,
});
