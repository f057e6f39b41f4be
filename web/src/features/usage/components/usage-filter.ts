import { formatDate } from '../../../lib/format';
/**
 * The usage screen's filter and sort live in the URL's search params, so a reload or a shared
 * link shows the same report. Days are UTC calendar days (`2026-11-01`) and both ends are
 * included; the API's window is [`from`, `to`), so `to` becomes the start of the next day.
 * A param that is not a day goes to the server as it is, which answers with its own 400.
 */
export type UsageFilter = {
  from: string | null;
  to: string | null;
  folderId: string | null;
  /** Only the runs of this member (a user id): a member's row of the usage by member links here. */
  memberId?: string | null;
};
export type Preset = 'this-month' | 'last-30-days' | 'all-time';
export type SortKey = 'project' | 'runs' | 'inputTokens' | 'outputTokens' | 'cost';
export type Sort = { key: SortKey; dir: 'asc' | 'desc' };

export const PRESETS: { value: Preset; label: string }[] = [
  { value: 'this-month', label: 'This month' },
  { value: 'last-30-days', label: 'Last 30 days' },
  { value: 'all-time', label: 'All time' },
];

const SORT_KEYS: readonly SortKey[] = ['project', 'runs', 'inputTokens', 'outputTokens', 'cost'];
export const DEFAULT_SORT: Sort = { key: 'project', dir: 'asc' };

const DAY_MS = 86_400_000;
const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10);
const startOf = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** A real calendar day written `YYYY-MM-DD` (not `2026-02-30`). */
export function isDay(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(startOf(value)) && dayOf(startOf(value)) === value;
}

export function readFilter(params: URLSearchParams): UsageFilter {
  const read = (name: string) => params.get(name)?.trim() || null;
  return { from: read('from'), to: read('to'), folderId: read('folderId'), memberId: read('memberId') };
}

export function readSort(params: URLSearchParams): Sort {
  const key = params.get('sort') as SortKey | null;
  if (!key || !SORT_KEYS.includes(key)) return DEFAULT_SORT;
  return { key, dir: params.get('dir') === 'desc' ? 'desc' : 'asc' };
}

/** `params` with the filter written over it (other params, such as the sort, kept); empty values removed. */
export function withFilter(params: URLSearchParams, filter: UsageFilter): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const name of ['from', 'to', 'folderId', 'memberId'] as const) {
    const value = filter[name];
    if (value) next.set(name, value);
    else next.delete(name);
  }
  return next;
}

export function withSort(params: URLSearchParams, sort: Sort): URLSearchParams {
  const next = new URLSearchParams(params);
  if (sort.key === DEFAULT_SORT.key && sort.dir === DEFAULT_SORT.dir) {
    next.delete('sort');
    next.delete('dir');
  } else {
    next.set('sort', sort.key);
    next.set('dir', sort.dir);
  }
  return next;
}

/** A click on a column header: the same column flips, another starts with its natural direction. */
export function nextSort(current: Sort, key: SortKey): Sort {
  if (current.key === key) return { key, dir: current.dir === 'asc' ? 'desc' : 'asc' };
  return { key, dir: key === 'project' ? 'asc' : 'desc' };
}

/** The query of `getUsageReport` (and, without `memberId`, `getUsageBreakdown`) for this filter. */
export function apiQuery(filter: UsageFilter): { from?: string; to?: string; folderId?: string; memberId?: string } {
  const query: { from?: string; to?: string; folderId?: string; memberId?: string } = {};
  if (filter.from) query.from = isDay(filter.from) ? `${filter.from}T00:00:00Z` : filter.from;
  if (filter.to) query.to = isDay(filter.to) ? `${dayOf(startOf(filter.to) + DAY_MS)}T00:00:00Z` : filter.to;
  if (filter.folderId) query.folderId = filter.folderId;
  if (filter.memberId) query.memberId = filter.memberId;
  return query;
}

/** The breakdown's query: facts are the organization's, never one member's. */
export const breakdownQuery = ({ memberId: _member, ...query }: ReturnType<typeof apiQuery>) => query;

/** The days a preset covers on `today` (UTC), both included; all time has no bounds. */
export function presetRange(preset: Preset, today: Date): Pick<UsageFilter, 'from' | 'to'> {
  const day = dayOf(today.getTime());
  if (preset === 'all-time') return { from: null, to: null };
  if (preset === 'last-30-days') return { from: dayOf(startOf(day) - 29 * DAY_MS), to: day };
  const firstOfNext = Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + 1, 1);
  return { from: `${day.slice(0, 7)}-01`, to: dayOf(firstOfNext - DAY_MS) };
}

/** The preset the filter's window is, on `today`; null for a custom range. */
export function matchPreset(filter: UsageFilter, today: Date): Preset | null {
  for (const { value } of PRESETS) {
    const range = presetRange(value, today);
    if (range.from === filter.from && range.to === filter.to) return value;
  }
  return null;
}

/** `1 Nov 2026 – 30 Nov 2026`, `from 1 Nov 2026`, `All time`: the window in words (UTC). */
export function describeWindow(filter: UsageFilter): string {
  const show = (value: string) => (isDay(value) ? formatDate(startOf(value)) : value);
  if (filter.from && filter.to) return `${show(filter.from)} – ${show(filter.to)}`;
  if (filter.from) return `From ${show(filter.from)}`;
  if (filter.to) return `Until ${show(filter.to)}`;
  return 'All time';
}
