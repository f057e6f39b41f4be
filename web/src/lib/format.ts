/**
 * Dates and money, one way everywhere in the console.
 *
 * Times are shown in UTC and say so: usage windows, budget periods and the audit log's days are
 * UTC days on the server, so a local clock would put a run near midnight in another day than the
 * report that counts it. Dates read `28 Nov 2026`; times `28 Nov 2026, 14:05 UTC` (24-hour).
 *
 * Money is US dollars with two decimals (`$1,234.50`). A cost above zero that two decimals would
 * show as `$0.00` reads `< $0.01`: a model call costs fractions of a cent, and zero would say it was
 * free. `exactUsd` gives the unrounded figure for a tooltip.
 */

const date = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const time = new Intl.DateTimeFormat('en-GB', {
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: 'UTC',
});

/** `2026-11-28T14:05:09Z` → `28 Nov 2026`. */
export const formatDate = (at: string | number | Date): string => date.format(new Date(at));

/** `2026-11-28T14:05:09Z` → `28 Nov 2026, 14:05 UTC`. */
export const formatDateTime = (at: string | number | Date): string => {
  const when = new Date(at);
  return `${date.format(when)}, ${time.format(when)} UTC`;
};

const usd = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
const precise = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 6 });
const CENT = 0.01;

/** `1234.5` → `$1,234.50`; `0.0004` → `< $0.01`; `0` → `$0.00`. */
export const formatUsd = (value: number): string =>
  value > 0 && value < CENT / 2 ? `< ${usd.format(CENT)}` : usd.format(value);

/** `0.000412` → `$0.000412`: the figure behind a rounded one. */
export const exactUsd = (value: number): string => precise.format(value);
