import { isPostgres } from '../db/connect.js';
import type { Executor } from '../db/unit-of-work.js';

export type BudgetScopeType = 'organization' | 'folder' | 'project' | 'team' | 'member' | 'apiToken' | 'serviceAccount';
export type BudgetMetric = 'costUsd' | 'tokens';
export type BudgetPeriod = 'day' | 'week' | 'month';
export type BudgetEnforcement = 'alert' | 'block';

export interface BudgetRecord {
  id: string;
  organization_id: string;
  name: string;
  scope_type: BudgetScopeType;
  scope_id: string | null;
  /** Each member's own allowance instead of one shared pool (organization, folder and team scopes). */
  per_member: boolean;
  metric: BudgetMetric;
  amount: number;
  period: BudgetPeriod;
  /** JSON array of ascending percents. */
  thresholds: string;
  enforcement: BudgetEnforcement;
  created_at: string;
  updated_at: string;
}

export type BudgetChanges = Partial<
  Pick<
    BudgetRecord,
    'name' | 'scope_type' | 'scope_id' | 'per_member' | 'metric' | 'amount' | 'period' | 'thresholds' | 'enforcement'
  >
>;

/** A threshold announced for one budget in one period, for one member of a per-member budget. */
export interface BudgetAlert {
  budgetId: string;
  /** The member whose allowance reached it; `''` for a budget's shared pool. */
  memberId: string;
  periodStart: string;
  threshold: number;
  spent: number;
  at: string;
}

/** Budgets and the thresholds they have announced. */
export class BudgetStore {
  async insert(trx: Executor, row: BudgetRecord): Promise<void> {
    await trx('budgets').insert(row);
  }

  async find(
    db: Executor,
    organizationId: string,
    id: string,
    options: { lock?: boolean } = {},
  ): Promise<BudgetRecord | undefined> {
    const query = db('budgets').where({ organization_id: organizationId, id });
    if (options.lock && isPostgres(db)) query.forUpdate();
    const row = await query.first<BudgetRecord | undefined>();
    return row && asRecord(row);
  }

  /**
   * The organization's budgets; locked for the rest of the transaction when asked (PostgreSQL;
   * SQLite has one writer), always in id order so two lockers never wait on each other in a cycle.
   */
  async list(db: Executor, organizationId: string, options: { lock?: boolean } = {}): Promise<BudgetRecord[]> {
    const query = db('budgets').where({ organization_id: organizationId }).orderBy('id');
    if (options.lock && isPostgres(db)) query.forUpdate();
    return (await query.select<BudgetRecord[]>('*')).map(asRecord);
  }

  async count(db: Executor, organizationId: string): Promise<number> {
    const row = await db('budgets')
      .where({ organization_id: organizationId })
      .first<{ n: number | string }>(db.raw('count(*) as n'));
    return Number(row?.n ?? 0);
  }

  async update(trx: Executor, id: string, changes: BudgetChanges, at: string): Promise<void> {
    await trx('budgets')
      .where({ id })
      .update({ ...changes, updated_at: at });
  }

  async delete(trx: Executor, id: string): Promise<void> {
    // Its alerts go with it by the foreign key's cascade.
    await trx('budget_alerts').where({ budget_id: id }).delete();
    await trx('budgets').where({ id }).delete();
  }

  /** Forgets what the budget announced, so its changed measure starts afresh. */
  async forgetAlerts(trx: Executor, budgetId: string): Promise<void> {
    await trx('budget_alerts').where({ budget_id: budgetId }).delete();
  }

  /**
   * Records the announcement unless it was made already; true when this call made it. The
   * primary key decides: of two transactions inserting the same row, the second waits for the
   * first and then inserts nothing.
   */
  async claimAlert(trx: Executor, alert: BudgetAlert): Promise<boolean> {
    const inserted = await trx('budget_alerts')
      .insert({
        budget_id: alert.budgetId,
        period_start: alert.periodStart,
        threshold: alert.threshold,
        member_id: alert.memberId,
        spent: alert.spent,
        created_at: alert.at,
      })
      .onConflict(['budget_id', 'period_start', 'threshold', 'member_id'])
      .ignore()
      .returning('threshold');
    return (inserted as unknown[]).length === 1;
  }
}

/** A stored row as a record: SQLite answers a boolean as 0 or 1. */
const asRecord = (row: BudgetRecord): BudgetRecord => ({ ...row, per_member: Boolean(row.per_member) });
