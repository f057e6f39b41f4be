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
