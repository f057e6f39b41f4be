import { randomUUID } from 'node:crypto';
import type { Schema } from '../api/types.js';
import { recordChange } from '../audit/trail.js';
import { type AuditActor, withAuditScope } from '../audit/scope.js';
import type { Clock } from '../config/clock.js';
import type { Executor, UnitOfWork } from '../db/unit-of-work.js';
import { badRequest, conflict, notFound } from '../errors/api-error.js';
import { requireLive, type ProjectRecord } from '../projects/project.js';
import type { PageRequest } from '../shared/pagination.js';
import { PERSON_GROUPINGS } from '../usage/initiators.js';
import type { UsageFilter } from '../usage/records.js';
import type { UsageStore } from '../usage/store.js';
import type { TeamSums } from '../usage/team-sums.js';
import { BUDGET_THRESHOLD } from '../webhooks/events.js';
import { periodOf } from './period.js';
import { type BudgetMemberView, type BudgetView, budgetMemberProjection, budgetProjection } from './projection.js';
import { memberSpendsIn, type Spend, spendIn, teamSpendIn } from './spend.js';
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

/** A run about to start, as the scopes of budgets name what it belongs to. */
export interface BudgetedRun {
  projectId: string;
  /** The folders on the project's path, from the root. */
  folderIds: readonly string[];
  /** The member accountable for it: the initiating member, or the owner of the initiating token. */
  memberId: string | null;
  apiTokenId: string | null;
  serviceAccountId: string | null;
  /** The active teams of the initiating principal. */
  teamIds: readonly string[];
}

/** Whether a budget of each scope counts the run; a scope without a row here counts none. */
const APPLIES: Partial<Record<BudgetScopeType, (run: BudgetedRun, id: string) => boolean>> = {
  organization: () => true,
  folder: (run, id) => run.folderIds.includes(id),
  project: (run, id) => run.projectId === id,
  team: (run, id) => run.teamIds.includes(id),
  member: (run, id) => run.memberId === id,
  apiToken: (run, id) => run.apiTokenId === id,
  serviceAccount: (run, id) => run.serviceAccountId === id,
};

/** The scopes whose budgets may give each member an allowance of their own. */
const PER_MEMBER_SCOPES: ReadonlySet<BudgetScopeType> = new Set(['organization', 'folder', 'team']);

/** A member's own spend under a per-member budget. */
interface MemberSpend {
  memberId: string;
  spend: Spend;
  spent: number;
}

/** A budget's measure in its current period: its status and, when per member, each member's spend (most first). */
interface Measured {
  view: BudgetView;
  members: MemberSpend[];
}

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
    private readonly usage: Pick<UsageStore, 'usageByProject' | 'runSums'>,
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
      checkPerMember(input.scope.type, input.perMember ?? false);
      if ((await this.store.count(trx, organizationId)) >= MAX_BUDGETS) {
        throw conflict('capacity_exceeded', `An organization has at most ${MAX_BUDGETS} budgets.`);
      }
      const record: BudgetRecord = {
        id: randomUUID(),
        organization_id: organizationId,
        name: input.name.trim() || input.name,
        scope_type: input.scope.type,
        scope_id: input.scope.id ?? null,
        per_member: input.perMember ?? false,
        metric: input.metric,
        amount: input.amount,
        period: input.period,
        thresholds: JSON.stringify(thresholds),
        enforcement: input.enforcement ?? 'alert',
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
    if (input.enforcement !== undefined) changes.enforcement = input.enforcement;
    if (input.perMember !== undefined) changes.per_member = input.perMember;
    const at = this.clock.now();
    return this.uow.run(async (trx) => {
      const before = await this.requireBudget(trx, organizationId, id, { lock: true });
      if (input.scope !== undefined) {
        await this.checkScope(trx, organizationId, input.scope);
        changes.scope_type = input.scope.type;
        changes.scope_id = input.scope.id ?? null;
      }
      checkPerMember(changes.scope_type ?? before.scope_type, changes.per_member ?? before.per_member);
      const measureChanged = (['scope_type', 'scope_id', 'per_member', 'metric', 'amount', 'period'] as const).some(
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
   * The budgets that apply to the run, enforce `block` and have spent their amount in their
   * current period: what makes admission deny it (docs/policies-and-admission.md).
   */
  async blocking(organizationId: string, run: BudgetedRun): Promise<BudgetView[]> {
    const db = this.uow.executor;
    const applying = (await this.store.list(db, organizationId)).filter(
      (budget) => budget.enforcement === 'block' && APPLIES[budget.scope_type]?.(run, budget.scope_id ?? '') === true,
    );
    const now = this.clock.now();
    const measured = await Promise.all(applying.map((budget) => this.measure(db, budget, now)));
    return measured.filter(({ view, members }) => exceededFor(run, view, members)).map(({ view }) => view);
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
        const { view, members } = await this.measure(trx, budget, now);
        const amount = Number(budget.amount);
        const periodStart = view.status.periodStart;
        // The shared pool, or each member's own allowance, most spent first.
        const pools = budget.per_member ? members : [{ memberId: '', spent: view.status.spent }];
        const announced: Array<{ memberId: string; spent: number; threshold: number }> = [];
        for (const { memberId, spent } of pools) {
          for (const threshold of JSON.parse(budget.thresholds) as number[]) {
            if (!reached(spent, amount, threshold)) break;
            const alert = { budgetId: budget.id, memberId, periodStart, threshold, spent, at: now.toISOString() };
            if (await this.store.claimAlert(trx, alert)) announced.push({ memberId, spent, threshold });
          }
        }
        const names = await memberNames(
          trx,
          organizationId,
          announced.filter((a) => a.memberId !== '').map((a) => a.memberId),
        );
        for (const { memberId, spent, threshold } of announced) {
          const member = memberId === '' ? {} : { member: { userId: memberId, displayName: names.get(memberId) } };
          await recordChange(trx, {
            organizationId,
            target: { type: 'budget', id: budget.id, label: budget.name },
            before: null,
            after: { budgetId: budget.id, threshold, spent, amount, periodStart, ...member },
          });
        }
      }
    });
  }

  /**
   * The members of a per-member budget at or over its lowest threshold in the current period, with
   * their names, most spent first; one page of them.
   */
  async membersReached(
    organizationId: string,
    id: string,
    page: PageRequest,
  ): Promise<ReturnType<typeof budgetMemberProjection.pageOf>> {
    const db = this.uow.reader;
    const record = await this.requireBudget(db, organizationId, id);
    const { members } = await this.measure(db, record, this.clock.now());
    const amount = Number(record.amount);
    const thresholds = JSON.parse(record.thresholds) as number[];
    const listed = members.filter((m) => reached(m.spent, amount, thresholds[0]!));
    const names = await memberNames(
      db,
      organizationId,
      listed.map((m) => m.memberId),
    );
    const rows = listed.map(
      (m): BudgetMemberView => ({
        user_id: m.memberId,
        display_name: names.get(m.memberId) ?? m.memberId,
        spent: m.spent,
        percent: (m.spent * 100) / amount,
        state: stateOf(m.spent, amount, thresholds) === 'exceeded' ? 'exceeded' : 'warning',
        runs_without_cost: m.spend.runsWithoutCost,
      }),
    );
    return budgetMemberProjection.pageOf(rows, page);
  }

  /** The budget with what its scope has spent in the period holding `now`. */
  private async withStatus(db: Executor, record: BudgetRecord, now: Date): Promise<BudgetView> {
    return (await this.measure(db, record, now)).view;
  }

  /**
   * What a budget's scope has spent in the period holding `now`: the shared pool, or each member's
   * own spend (then the status is the member who spent most's, with how many reached a threshold).
   */
  private async measure(db: Executor, record: BudgetRecord, now: Date): Promise<Measured> {
    const { start, end } = periodOf(record.period, now);
    const filter: UsageFilter = {
      from: start.toISOString(),
      to: end.toISOString(),
      ...(record.scope_type === 'organization' ? {} : SCOPES[record.scope_type].filter(record.scope_id!)),
    };
    const amount = Number(record.amount);
    const thresholds = JSON.parse(record.thresholds) as number[];
    const measured = (spend: Spend) => (record.metric === 'costUsd' ? spend.costUsd : spend.tokens);
    const period = { periodStart: start.toISOString(), periodEnd: end.toISOString() };
    const status = (spent: number, runsWithoutCost: number) => ({
      ...period,
      spent,
      percent: (spent * 100) / amount,
      state: stateOf(spent, amount, thresholds),
      runsWithoutCost,
    });
    if (!record.per_member) {
      const spend =
        filter.teamId !== undefined
          ? await teamSpendIn(this.teams, db, record.organization_id, filter)
          : await spendIn(this.usage, db, record.organization_id, filter);
      return { view: { ...record, status: status(measured(spend), spend.runsWithoutCost) }, members: [] };
    }
    const spends = await memberSpendsIn({ usage: this.usage, teams: this.teams }, db, record.organization_id, filter);
    const members = [...spends]
      .map(([memberId, spend]) => ({ memberId, spend, spent: measured(spend) }))
      .sort((a, b) => b.spent - a.spent || (a.memberId < b.memberId ? -1 : 1));
    const runsWithoutCost = members.reduce((n, m) => n + m.spend.runsWithoutCost, 0);
    const membersReached = members.filter((m) => reached(m.spent, amount, thresholds[0]!)).length;
    return {
      view: { ...record, status: { ...status(members[0]?.spent ?? 0, runsWithoutCost), membersReached } },
      members,
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

/** `exceeded` from 100 %, `warning` from the lowest threshold, else `ok`. */
function stateOf(spent: number, amount: number, thresholds: readonly number[]): 'ok' | 'warning' | 'exceeded' {
  if (reached(spent, amount, 100)) return 'exceeded';
  return thresholds.some((t) => reached(spent, amount, t)) ? 'warning' : 'ok';
}

/**
 * Whether the budget's amount is spent for this run: its shared pool, or, when each member has an
 * allowance of their own, the allowance of the run's accountable member (a run with none is
 * counted in no member's allowance, so such a budget never stops it).
 */
function exceededFor(run: BudgetedRun, view: BudgetView, members: readonly MemberSpend[]): boolean {
  if (!view.per_member) return view.status.state === 'exceeded';
  const own = members.find((m) => m.memberId === run.memberId);
  return own !== undefined && reached(own.spent, Number(view.amount), 100);
}

/** A per-member allowance only on the scopes with members to share it (400 otherwise). */
function checkPerMember(scope: BudgetScopeType, perMember: boolean): void {
  if (perMember && !PER_MEMBER_SCOPES.has(scope)) {
    throw badRequest(`A ${scope} budget has no members to give an allowance each.`, [
      { path: '/body/perMember', message: 'must be false unless the scope is organization, folder or team' },
    ]);
  }
}

/** The names the organization shows for these members, "(former member)" once they left. */
async function memberNames(db: Executor, organizationId: string, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .from(PERSON_GROUPINGS.member.labels(db, organizationId).as('l'))
    .whereIn('l.id', ids)
    .select<Array<{ id: string; label: string }>>('l.id', 'l.label');
  return new Map(rows.map((r) => [r.id, r.label]));
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
