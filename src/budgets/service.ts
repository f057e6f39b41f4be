import { randomUUID } from 'node:crypto';
import type { Schema } from '../api/types.js';
import { recordChange } from '../audit/trail.js';
import { type AuditActor, withAuditScope } from '../audit/scope.js';
import type { Clock } from '../config/clock.js';
import type { Executor, UnitOfWork } from '../db/unit-of-work.js';
import { badRequest, conflict, notFound } from '../errors/api-error.js';
import { requireLive, type ProjectRecord } from '../projects/project.js';
import type { UsageFilter } from '../usage/records.js';
import type { UsageStore } from '../usage/store.js';
import type { TeamSums } from '../usage/team-sums.js';
import { BUDGET_THRESHOLD } from '../webhooks/events.js';
import { periodOf } from './period.js';
import { type BudgetView, budgetProjection } from './projection.js';
import { spendIn, teamSpendIn } from './spend.js';
import type { BudgetChanges, BudgetRecord, BudgetScopeType, BudgetStore } from './store.js';

export type CreateBudgetInput = Schema<'CreateBudgetRequest'>;
export type UpdateBudgetInput = Schema<'UpdateBudgetRequest'>;

/** Budgets an organization may keep: each is summed at every ingest. */
export const MAX_BUDGETS = 100;
export const DEFAULT_THRESHOLDS = [50, 80, 100];
/** The actor of a threshold announcement: the service, applying a limit an admin set. */
export const BUDGET_ACTOR: AuditActor = { type: 'system', id: null, displayName: 'system' };

/** What a scope may name, as its own store finds it. */
export interface BudgetScopes {
  activeFolder(db: Executor, organizationId: string, folderId: string): Promise<unknown>;
  project(db: Executor, organizationId: string, projectId: string): Promise<ProjectRecord | undefined>;
  activeTeam(db: Executor, organizationId: string, teamId: string): Promise<unknown>;
  activeMember(db: Executor, organizationId: string, userId: string): Promise<unknown>;
  apiToken(db: Executor, organizationId: string, tokenId: string): Promise<unknown>;
  liveServiceAccount(db: Executor, organizationId: string, accountId: string): Promise<unknown>;
}

/**
 * Each scope's runs, as a usage filter over the scope's id, and how a scope id the organization
 * does not have (or no longer has live) is refused. A new scope is a row here.
 */
const SCOPES: Record<
  Exclude<BudgetScopeType, 'organization'>,
  {
    filter: (id: string) => UsageFilter;
    check: (scopes: BudgetScopes, db: Executor, org: string, id: string) => Promise<void>;
  }
> = {
  folder: {
    filter: (id) => ({ folderId: id }),
    check: async (scopes, db, org, id) => {
      if (!(await scopes.activeFolder(db, org, id)))
        throw notFound('folder_not_found', `No folder ${id} in this organization.`);
    },
  },
  project: {
    filter: (id) => ({ projectId: id }),
    check: async (scopes, db, org, id) => {
      const project = await scopes.project(db, org, id);
      if (!project) throw notFound('project_not_found', `No project ${id} in this organization.`);
      requireLive(project);
    },
  },
  team: {
    filter: (id) => ({ teamId: id }),
    check: async (scopes, db, org, id) => {
      if (!(await scopes.activeTeam(db, org, id)))
        throw notFound('team_not_found', `No team ${id} in this organization.`);
    },
  },
  member: {
    filter: (id) => ({ memberId: id }),
    check: async (scopes, db, org, id) => {
      if (!(await scopes.activeMember(db, org, id)))
        throw notFound('member_not_found', `No member ${id} in this organization.`);
    },
  },
  apiToken: {
    filter: (id) => ({ apiTokenId: id }),
    check: async (scopes, db, org, id) => {
      if (!(await scopes.apiToken(db, org, id)))
        throw notFound('token_not_found', `No API token ${id} in this organization.`);
    },
  },
  serviceAccount: {
    filter: (id) => ({ serviceAccountId: id }),
    check: async (scopes, db, org, id) => {
      if (!(await scopes.liveServiceAccount(db, org, id)))
        throw notFound('service_account_not_found', `No service account ${id} in this organization.`);
    },
  },
};

const budgetNotFound = (id: string) => notFound('budget_not_found', `No budget "${id}" in this organization.`);

/** Whether `spent` has reached `percent` of `amount`. */
const reached = (spent: number, amount: number, percent: number) => spent * 100 >= percent * amount;

/**
 * An organization's budgets (docs/decisions.md, "Budgets and spend alerts"): each measured live over its
 * current UTC period, and announced once per period and threshold when an ingest finds it reached.
 */
export class BudgetService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly store: BudgetStore,
    private readonly usage: Pick<UsageStore, 'usageByProject'>,
    private readonly teams: TeamSums,
    private readonly scopes: BudgetScopes,
    private readonly clock: Clock,
  ) {}

  async list(organizationId: string): Promise<BudgetView[]> {
    const db = this.uow.executor;
    const records = await this.store.list(db, organizationId);
    const now = this.clock.now();
    return Promise.all(records.map((record) => this.withStatus(db, record, now)));
  }

  async create(organizationId: string, input: CreateBudgetInput): Promise<BudgetView> {
    const thresholds = checkedThresholds(input.thresholds ?? DEFAULT_THRESHOLDS);
    const at = this.clock.now();
    return this.uow.run(async (trx) => {
      await this.checkScope(trx, organizationId, input.scope);
      if ((await this.store.count(trx, organizationId)) >= MAX_BUDGETS) {
        throw conflict('capacity_exceeded', `An organization has at most ${MAX_BUDGETS} budgets.`);
      }
      const record: BudgetRecord = {
        id: randomUUID(),
        organization_id: organizationId,
        name: input.name.trim() || input.name,
        scope_type: input.scope.type,
        scope_id: input.scope.id ?? null,
        metric: input.metric,
        amount: input.amount,
        period: input.period,
        thresholds: JSON.stringify(thresholds),
        created_at: at.toISOString(),
        updated_at: at.toISOString(),
      };
      await this.store.insert(trx, record);
      const view = await this.withStatus(trx, record, at);
      await recordBudgetChange(trx, null, view);
      return view;
    });
  }

  async update(organizationId: string, id: string, input: UpdateBudgetInput): Promise<BudgetView> {
    const changes: BudgetChanges = {};
    if (input.name !== undefined) changes.name = input.name;
    if (input.thresholds !== undefined) changes.thresholds = JSON.stringify(checkedThresholds(input.thresholds));
    if (input.metric !== undefined) changes.metric = input.metric;
    if (input.amount !== undefined) changes.amount = input.amount;
    if (input.period !== undefined) changes.period = input.period;
    const at = this.clock.now();
    return this.uow.run(async (trx) => {
      const before = await this.requireBudget(trx, organizationId, id, { lock: true });
      if (input.scope !== undefined) {
        await this.checkScope(trx, organizationId, input.scope);
        changes.scope_type = input.scope.type;
        changes.scope_id = input.scope.id ?? null;
      }
      const measureChanged = (['scope_type', 'scope_id', 'metric', 'amount', 'period'] as const).some(
        (column) => column in changes && changes[column] !== before[column],
      );
      await this.store.update(trx, id, changes, at.toISOString());
      if (measureChanged) await this.store.forgetAlerts(trx, id);
      const after = await this.requireBudget(trx, organizationId, id);
      const [beforeView, afterView] = [await this.withStatus(trx, before, at), await this.withStatus(trx, after, at)];
      await recordBudgetChange(trx, beforeView, afterView);
      return afterView;
    });
  }

  async delete(organizationId: string, id: string): Promise<void> {
    const at = this.clock.now();
    await this.uow.run(async (trx) => {
      const before = await this.requireBudget(trx, organizationId, id, { lock: true });
      await this.store.delete(trx, id);
      await recordBudgetChange(trx, await this.withStatus(trx, before, at), null);
    });
  }

  /**
   * Announces, inside an ingest's transaction once its runs are written, every threshold a budget
   * of the organization has reached in its current period and not announced in it yet: one
   * `budget.threshold` audit event each (and so its webhook deliveries), beside the alert row whose
   * key keeps it from being made twice. The budgets are locked first, so a second ingest racing
   * this one waits, then sums with this one's runs committed and finds the thresholds announced.
   */
  async announceReached(trx: Executor, organizationId: string): Promise<void> {
    const budgets = await this.store.list(trx, organizationId, { lock: true });
    if (budgets.length === 0) return;
    const now = this.clock.now();
    const scope = { actor: BUDGET_ACTOR, at: now, action: BUDGET_THRESHOLD, requestId: null };
    await withAuditScope(scope, async () => {
      for (const budget of budgets) {
        const view = await this.withStatus(trx, budget, now);
        const amount = Number(budget.amount);
        for (const threshold of JSON.parse(budget.thresholds) as number[]) {
          if (!reached(view.status.spent, amount, threshold)) break;
          const periodStart = view.status.periodStart;
          const alert = {
            budgetId: budget.id,
            periodStart,
            threshold,
            spent: view.status.spent,
            at: now.toISOString(),
          };
          if (!(await this.store.claimAlert(trx, alert))) continue;
          await recordChange(trx, {
            organizationId,
            target: { type: 'budget', id: budget.id, label: budget.name },
            before: null,
            after: { budgetId: budget.id, threshold, spent: view.status.spent, amount, periodStart },
          });
        }
      }
    });
  }

  /** The budget with what its scope has spent in the period holding `now`. */
  private async withStatus(db: Executor, record: BudgetRecord, now: Date): Promise<BudgetView> {
    const { start, end } = periodOf(record.period, now);
    const filter: UsageFilter = {
      from: start.toISOString(),
      to: end.toISOString(),
      ...(record.scope_type === 'organization' ? {} : SCOPES[record.scope_type].filter(record.scope_id!)),
    };
    const spend =
      filter.teamId !== undefined
        ? await teamSpendIn(this.teams, db, record.organization_id, filter)
        : await spendIn(this.usage, db, record.organization_id, filter);
    const spent = record.metric === 'costUsd' ? spend.costUsd : spend.tokens;
    const amount = Number(record.amount);
    const thresholds = JSON.parse(record.thresholds) as number[];
    const state = reached(spent, amount, 100)
      ? 'exceeded'
      : thresholds.some((t) => reached(spent, amount, t))
        ? 'warning'
        : 'ok';
    return {
      ...record,
      status: {
        periodStart: start.toISOString(),
        periodEnd: end.toISOString(),
        spent,
        percent: (spent * 100) / amount,
        state,
        runsWithoutCost: spend.runsWithoutCost,
      },
    };
  }

  /** A scope's id must be this organization's and live (SCOPES); the organization takes no id. */
  private async checkScope(db: Executor, organizationId: string, scope: CreateBudgetInput['scope']): Promise<void> {
    const id = scope.id ?? undefined;
    if (scope.type === 'organization') {
      if (id !== undefined)
        throw badRequest('An organization budget takes no scope id.', [
          { path: '/body/scope/id', message: 'must be absent for an organization budget' },
        ]);
      return;
    }
    if (id === undefined) {
      throw badRequest(`A ${scope.type} budget names its ${scope.type}.`, [
        { path: '/body/scope/id', message: `must name a ${scope.type}` },
      ]);
    }
    await SCOPES[scope.type].check(this.scopes, db, organizationId, id);
  }

  private async requireBudget(
    db: Executor,
    organizationId: string,
    id: string,
    options: { lock?: boolean } = {},
  ): Promise<BudgetRecord> {
    const found = await this.store.find(db, organizationId, id, options);
    if (!found) throw budgetNotFound(id);
    return found;
  }
}

/** Ascending percents without repeats (400 naming the first out of order). */
function checkedThresholds(thresholds: readonly number[]): number[] {
  thresholds.forEach((threshold, index) => {
    if (index > 0 && threshold <= thresholds[index - 1]!) {
      throw badRequest('Thresholds must be ascending, without repeats.', [
        { path: `/body/thresholds/${index}`, message: 'must be greater than the threshold before it' },
      ]);
    }
  });
  return [...thresholds];
}

async function recordBudgetChange(trx: Executor, before: BudgetView | null, after: BudgetView | null) {
  const row = (after ?? before)!;
  await recordChange(trx, {
    organizationId: row.organization_id,
    target: { type: 'budget', id: row.id, label: row.name },
    before: before && budgetProjection.toApi(before),
    after: after && budgetProjection.toApi(after),
  });
}
