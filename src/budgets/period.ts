import type { BudgetPeriod } from './store.js';

/** The UTC calendar period holding `at`: a day, a week from Monday, or a month; the end is exclusive. */
export function periodOf(period: BudgetPeriod, at: Date): { start: Date; end: Date } {
  const [y, m, d] = [at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()];
  if (period === 'month') return { start: new Date(Date.UTC(y, m, 1)), end: new Date(Date.UTC(y, m + 1, 1)) };
  // getUTCDay counts from Sunday (0); a week here starts on Monday.
  const back = period === 'week' ? (at.getUTCDay() + 6) % 7 : 0;
  const length = period === 'week' ? 7 : 1;
  return { start: new Date(Date.UTC(y, m, d - back)), end: new Date(Date.UTC(y, m, d - back + length)) };
}
