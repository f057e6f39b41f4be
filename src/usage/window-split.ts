/**
 * A usage window split where the rollups can answer it: the whole UTC days inside it, read from
 * the daily rollups, and the partial days at its edges, read from the raw runs and facts. Every
 * read that sums runs or facts over a window splits it here, so the rule lives in one place.
 */
export interface WindowSplit {
  /** Whole days [fromDay, toDay) as YYYY-MM-DD (either end open when undefined); null when none. */
  days: { fromDay?: string | undefined; toDay?: string | undefined } | null;
  /** Time ranges [from, to) outside those days, each end an ISO time (open when undefined). */
  edges: Array<{ from?: string | undefined; to?: string | undefined }>;
}

const DAY_MS = 86_400_000;

/** The UTC day of an ISO time, as YYYY-MM-DD. */
export const dayOf = (iso: string): string => iso.slice(0, 10);
const startOf = (day: string): string => `${day}T00:00:00.000Z`;
/** The UTC day after a YYYY-MM-DD day. */
export const dayAfter = (day: string): string => new Date(Date.parse(startOf(day)) + DAY_MS).toISOString().slice(0, 10);
const atMidnight = (iso: string): boolean => iso === startOf(dayOf(iso));

/** Splits [from, to) (normalized ISO times, from ≤ to; undefined for an open end). */
export function splitWindow(from: string | undefined, to: string | undefined): WindowSplit {
  const fromDay = from === undefined ? undefined : atMidnight(from) ? dayOf(from) : dayAfter(dayOf(from));
  const toDay = to === undefined ? undefined : dayOf(to);
  if (fromDay !== undefined && toDay !== undefined && fromDay >= toDay) {
    return { days: null, edges: from === to ? [] : [{ from, to }] };
  }
  const edges: WindowSplit['edges'] = [];
  if (from !== undefined && fromDay !== undefined && !atMidnight(from)) edges.push({ from, to: startOf(fromDay) });
  if (to !== undefined && toDay !== undefined && !atMidnight(to)) edges.push({ from: startOf(toDay), to });
  return { days: { fromDay, toDay }, edges };
}
