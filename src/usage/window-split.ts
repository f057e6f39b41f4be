/**
 * A usage window split where the rollups can answer it: the whole UTC months inside it (when the
 * read has a monthly level), the other whole UTC days, and the partial days at its edges, read
 * from the raw runs and facts. Every read that sums runs or facts over a window splits it here,
 * so the rule lives in one place.
 */

/** A range [from, to) of days (YYYY-MM-DD) or months (YYYY-MM); either end open when undefined. */
export interface PeriodRange {
  from?: string | undefined;
  to?: string | undefined;
}

export interface WindowSplit {
  /** Whole months, when asked for and there are any; null otherwise. */
  months: PeriodRange | null;
  /** Whole days outside those months. */
  days: PeriodRange[];
  /** Time ranges outside those days, each end an ISO time (open when undefined). */
  edges: PeriodRange[];
}

const DAY_MS = 86_400_000;

/** The UTC day of an ISO time, as YYYY-MM-DD. */
export const dayOf = (iso: string): string => iso.slice(0, 10);
/** The UTC month of a day or an ISO time, as YYYY-MM. */
export const monthOf = (dayOrIso: string): string => dayOrIso.slice(0, 7);
const startOf = (day: string): string => `${day}T00:00:00.000Z`;
const firstDayOf = (month: string): string => `${month}-01`;
/** The UTC day after a YYYY-MM-DD day. */
export const dayAfter = (day: string): string => new Date(Date.parse(startOf(day)) + DAY_MS).toISOString().slice(0, 10);
const monthAfter = (month: string): string => {
  const [year, index] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, index, 1)).toISOString().slice(0, 7);
};
const atMidnight = (iso: string): boolean => iso === startOf(dayOf(iso));

/** Splits [from, to) (normalized ISO times, from ≤ to; undefined for an open end). */
export function splitWindow(from: string | undefined, to: string | undefined, withMonths = false): WindowSplit {
  const fromDay = from === undefined ? undefined : atMidnight(from) ? dayOf(from) : dayAfter(dayOf(from));
  const toDay = to === undefined ? undefined : dayOf(to);
  if (fromDay !== undefined && toDay !== undefined && fromDay >= toDay) {
    return { months: null, days: [], edges: from === to ? [] : [{ from, to }] };
  }
  const edges: PeriodRange[] = [];
  if (from !== undefined && fromDay !== undefined && !atMidnight(from)) edges.push({ from, to: startOf(fromDay) });
  if (to !== undefined && toDay !== undefined && !atMidnight(to)) edges.push({ from: startOf(toDay), to });
  const days = { from: fromDay, to: toDay };
  return { ...(withMonths ? splitDays(days) : { months: null, days: [days] }), edges };
}

/** Whole days [from, to) as the whole months inside them and the days before and after those. */
function splitDays(days: PeriodRange): Pick<WindowSplit, 'months' | 'days'> {
  const fromMonth =
    days.from === undefined
      ? undefined
      : days.from.endsWith('-01')
        ? monthOf(days.from)
        : monthAfter(monthOf(days.from));
  const toMonth = days.to === undefined ? undefined : monthOf(days.to);
  if (fromMonth !== undefined && toMonth !== undefined && fromMonth >= toMonth) return { months: null, days: [days] };
  const outside: PeriodRange[] = [];
  if (days.from !== undefined && fromMonth !== undefined && days.from !== firstDayOf(fromMonth)) {
    outside.push({ from: days.from, to: firstDayOf(fromMonth) });
  }
  if (days.to !== undefined && toMonth !== undefined && days.to !== firstDayOf(toMonth)) {
    outside.push({ from: firstDayOf(toMonth), to: days.to });
  }
  return { months: { from: fromMonth, to: toMonth }, days: outside };
}
