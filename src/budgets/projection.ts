import type { Schema } from '../api/types.js';
import { projection } from '../shared/projection.js';
import type { BudgetRecord } from './store.js';

type Budget = Schema<'Budget'>;

/** A budget's row with its status in the current period, which the service computes. */
export interface BudgetView extends BudgetRecord {
  status: Budget['status'];
}

/** A budget as the API shows it. By name, then id. */
export const budgetProjection = projection<BudgetView, Budget>()({
  fields: {
    id: 'id',
    name: 'name',
    scope: { from: (row) => ({ type: row.scope_type, id: row.scope_id }) },
    perMember: 'per_member',
    metric: 'metric',
    amount: { column: 'amount', as: Number },
    period: 'period',
    thresholds: { column: 'thresholds', as: (thresholds) => JSON.parse(thresholds) as number[] },
    enforcement: 'enforcement',
    createdAt: 'created_at',
    updatedAt: 'updated_at',
    status: { from: (row) => row.status },
  },
  order: [
    { column: 'name', by: 'name' },
    { column: 'id', by: 'codeUnits' },
  ],
});

/** A member of a per-member budget at or over a threshold, with their own status. */
export interface BudgetMemberView {
  user_id: string;
  display_name: string;
  spent: number;
  percent: number;
  state: 'warning' | 'exceeded';
  runs_without_cost: number;
}

/** Most spent first, then by user id. */
export const budgetMemberProjection = projection<BudgetMemberView, Schema<'BudgetMemberStatus'>>()({
  fields: {
    userId: 'user_id',
    displayName: 'display_name',
    spent: 'spent',
    percent: 'percent',
    state: 'state',
    runsWithoutCost: 'runs_without_cost',
  },
  order: [
    { column: 'spent', by: 'numberDescending' },
    { column: 'user_id', by: 'codeUnits' },
  ],
});
