/**
 * Budgets as the screen shows them: the amount and what was spent in the metric's unit, the state
 * in words (so the bar's colour is never the only cue), and the thresholds typed as a list.
 */
import type { Schemas } from '../../../lib/api-client';
import { formatUsd } from '../../../lib/format';
import { formatCount } from '../../../lib/units';

export type Budget = Schemas['Budget'];
export type BudgetState = Schemas['BudgetStatus']['state'];

export const DEFAULT_THRESHOLDS = [50, 80, 100];

export const PERIOD_LABELS: Record<Schemas['BudgetPeriod'], string> = {
  day: 'Per day',
  week: 'Per week (from Monday)',
  month: 'Per month',
};

export const STATE_COLORS: Record<BudgetState, string> = { ok: 'blue', warning: 'yellow', exceeded: 'red' };

/** `$412.50` or `1,200,000 tokens`. */
export const formatAmount = (value: number, metric: Schemas['BudgetMetric']): string =>
  metric === 'costUsd' ? formatUsd(value) : `${formatCount(value)} tokens`;

/** `$412.50 of $500.00 · 83 % · warning`: the whole status in words. */
export function describeStatus(budget: Budget): string {
  const { status, metric, amount } = budget;
  const share = `${Math.floor(status.percent)} % · ${status.state}`;
  return `${formatAmount(status.spent, metric)} of ${formatAmount(amount, metric)} · ${share}`;
}

/** Budgets at or past a threshold this period, the most spent first. */
export const atRisk = (budgets: readonly Budget[]): Budget[] =>
  budgets.filter((b) => b.status.state !== 'ok').sort((a, b) => b.status.percent - a.status.percent);

/**
 * `"50, 80, 100"` → `[50, 80, 100]`; undefined when an entry is not a whole number. The server
 * checks the rest (range, order, repeats) and says which.
 */
export function parseThresholds(text: string): number[] | undefined {
  const parts = text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length === 0 || parts.some((p) => !/^\d+$/.test(p))) return undefined;
  return parts.map(Number);
}
