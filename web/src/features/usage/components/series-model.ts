/**
 * The usage series as the Usage page charts it: the bucket, the grouping and the measure are the
 * URL's (`bucket`, `groupBy`, `measure`), and the series is stacked by group, the largest groups
 * of the window each in a colour of their own and the rest together as "Other". An unknown cost
 * counts nothing in the chart; the table says it is unknown.
 */
import type { SeriesBucket, SeriesGroupBy } from '../api/get-usage-series';
import type { Schemas } from '../../../lib/api-client';

export type Series = Schemas['UsageSeries'];
export type SeriesGroup = Schemas['UsageSeriesGroup'];
export type Measure = 'cost' | 'tokens' | 'runs';
export type SeriesOptions = { bucket: SeriesBucket; groupBy: SeriesGroupBy; measure: Measure };

export const BUCKETS: { value: SeriesBucket; label: string }[] = [
  { value: 'day', label: 'Day' },
  { value: 'week', label: 'Week (from Monday)' },
  { value: 'month', label: 'Month' },
];
export const GROUPINGS: { value: SeriesGroupBy; label: string }[] = [
  { value: 'project', label: 'Project' },
  { value: 'model', label: 'Model' },
  { value: 'provider', label: 'Provider' },
  { value: 'role', label: 'Role' },
  { value: 'member', label: 'Member' },
  { value: 'team', label: 'Team' },
  { value: 'apiToken', label: 'API token' },
  { value: 'serviceAccount', label: 'Service account' },
];
export const MEASURES: { value: Measure; label: string }[] = [
  { value: 'cost', label: 'Cost (USD)' },
  { value: 'tokens', label: 'Tokens' },
  { value: 'runs', label: 'Runs' },
];
const DEFAULTS: SeriesOptions = { bucket: 'day', groupBy: 'project', measure: 'cost' };

/** Groups with a colour of their own; more would be colours nobody tells apart. */
export const STACKED_GROUPS = 8;
export const OTHER_KEY = '\u0000other';
/** The band of the runs without a member, team or token (the server's key null). */
export const NONE_KEY = '\u0000none';
const keyOf = (group: SeriesGroup) => group.key ?? NONE_KEY;

const pick = <T extends string>(choices: { value: T }[], value: string | null, fallback: T): T =>
  choices.find((c) => c.value === value)?.value ?? fallback;

export function readSeriesOptions(params: URLSearchParams): SeriesOptions {
  return {
    bucket: pick(BUCKETS, params.get('bucket'), DEFAULTS.bucket),
    groupBy: pick(GROUPINGS, params.get('groupBy'), DEFAULTS.groupBy),
    measure: pick(MEASURES, params.get('measure'), DEFAULTS.measure),
  };
}

/** `params` with the options written over it; a default is left out of the URL. */
export function withSeriesOptions(params: URLSearchParams, options: SeriesOptions): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const name of ['bucket', 'groupBy', 'measure'] as const) {
    if (options[name] === DEFAULTS[name]) next.delete(name);
    else next.set(name, options[name]);
  }
  return next;
}

export const measureOf = (group: SeriesGroup, measure: Measure): number =>
  measure === 'cost'
    ? (group.costUsd ?? 0)
    : measure === 'tokens'
      ? group.inputTokens + group.outputTokens
      : group.runCount;

/** A colour band of the chart: one group, or every other group together. */
export interface Band {
  key: string;
  label: string;
  total: number;
}

/** One bucket as stacked: a value per band, in the bands' order. */
export interface StackedBucket {
  start: string;
  values: number[];
  total: number;
}

/**
 * The bands — the groups with the largest totals of the measure over the window, largest first,
 * then "Other" for the rest — and each bucket's value per band.
 */
export function stackSeries(series: Series, measure: Measure): { bands: Band[]; buckets: StackedBucket[] } {
  const totals = new Map<string, Band>();
  for (const bucket of series.buckets) {
    for (const group of bucket.groups) {
      const band = totals.get(keyOf(group)) ?? { key: keyOf(group), label: group.label, total: 0 };
      band.total += measureOf(group, measure);
      totals.set(keyOf(group), band);
    }
  }
  const ranked = [...totals.values()].sort((a, b) => b.total - a.total || a.label.localeCompare(b.label, 'en'));
  const own = ranked.length > STACKED_GROUPS ? ranked.slice(0, STACKED_GROUPS - 1) : ranked;
  const rest = ranked.slice(own.length);
  const bands =
    rest.length > 0
      ? [
          ...own,
          {
            key: OTHER_KEY,
            label: `Other (${rest.length} groups)`,
            total: rest.reduce((sum, band) => sum + band.total, 0),
          },
        ]
      : own;
  const index = new Map(own.map((band, i) => [band.key, i]));
  const buckets = series.buckets.map((bucket) => {
    const values = bands.map(() => 0);
    for (const group of bucket.groups)
      values[index.get(keyOf(group)) ?? bands.length - 1]! += measureOf(group, measure);
    return { start: bucket.start, values, total: values.reduce((a, b) => a + b, 0) };
  });
  return { bands, buckets };
}
