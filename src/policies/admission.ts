import type { Schema } from '../api/types.js';
import type { BudgetedRun } from '../budgets/service.js';
import type { BudgetView } from '../budgets/projection.js';
import { CAPACITY_DIMENSIONS, type CapacityDimension } from '../capacity/dimensions.js';
import type { Clock } from '../config/clock.js';
import type { AgentModel } from '../config/models.js';
import type { Executor, UnitOfWork } from '../db/unit-of-work.js';
import { badRequest } from '../errors/api-error.js';
import { grantAtLeast } from '../grants/roles.js';
import type { GrantRole } from '../grants/roles.js';
import type { ProjectRecord } from '../projects/project.js';
import { type InitiatedBy, INITIATOR_KINDS } from '../usage/initiators.js';
import { checkInitiator } from '../usage/run-line.js';
import { describeSource, reason, type Reason } from './reasons.js';
import {
  type PolicyChain,
  type PolicySource,
  permitsCapability,
  permitsModel,
  permitsProvider,
  permitsTool,
  refusedBy,
  type ScopedAllow,
} from './resolver.js';
import { parseAllow } from './projection.js';
import type { PolicyService } from './service.js';
import type { PolicyStore } from './store.js';

export type AdmissionRequest = Schema<'AdmissionRequest'>;
export type AdmissionDecision = Schema<'AdmissionDecision'>;
type Limits = AdmissionDecision['limits'];

/**
 * The capacity dimensions a run is held to while it runs, whose effective limits admission
 * answers: the agents running at once, and the run-time dimensions (the contract lists them last,
 * from `runWallTime` on).
 */
export const RUN_LIMIT_DIMENSIONS = [
  'agentConcurrency',
  ...CAPACITY_DIMENSIONS.slice(CAPACITY_DIMENSIONS.indexOf('runWallTime')),
] as ReadonlyArray<CapacityDimension & keyof Limits>;

/** What admission reads of the other areas, each through that area's own store or service. */
export interface AdmissionReads {
  project(db: Executor, organizationId: string, projectId: string): Promise<ProjectRecord | undefined>;
  grantOf(organizationId: string, userId: string, projectId: string): Promise<GrantRole | null>;
  teamsOf(db: Executor, userId: string): Promise<Array<{ organization_id: string; id: string; name: string }>>;
  /** A live (not deleted) service account of the organization. */
  serviceAccount(db: Executor, organizationId: string, id: string): Promise<{ disabled_at: string | null } | undefined>;
  role(
    db: Executor,
    organizationId: string,
    roleId: string,
  ): Promise<{ label: string; disabled_at: string | null; tools: string | null } | undefined>;
  provider(db: Executor, organizationId: string, providerId: string): Promise<{ status: string } | undefined>;
  capability(
    db: Executor,
    organizationId: string,
    capabilityId: string,
  ): Promise<{ status: string; label: string } | undefined>;
  blockingBudgets(organizationId: string, run: BudgetedRun): Promise<BudgetView[]>;
  limit(organizationId: string, dimension: CapacityDimension): Promise<number>;
  models(): readonly AgentModel[];
}

/** Who starts the run, resolved: the user whose grants and teams count, and what budgets name. */
interface Principal {
  userId: string;
  source: Reason['source'];
  budgeted: Pick<BudgetedRun, 'memberId' | 'apiTokenId' | 'serviceAccountId'>;
}

/**
 * What admission reads once for a project and an initiator: the refusals that do not depend on
 * the run's own choices (project, initiator, budgets) and the policies that bear on it. The model
 * picker reads it once and asks it of every model; admission asks it of one run.
 */
export interface AdmissionContext {
  organizationId: string;
  standing: Reason[];
  chain: PolicyChain;
}

/**
 * The `projectId` and `initiator` query parameters of a list answered by admission: both or
 * neither (undefined); one alone is refused.
 */
export function runQuery(query: {
  projectId?: string;
  initiator?: string;
}): { projectId: string; initiatedBy: InitiatedBy } | undefined {
  if (query.projectId === undefined && query.initiator === undefined) return undefined;
  if (query.projectId === undefined || query.initiator === undefined)
    throw badRequest('projectId and initiator are given together.', [
      { path: query.projectId === undefined ? '/query/projectId' : '/query/initiator', message: 'is required here' },
    ]);
  return { projectId: query.projectId, initiatedBy: parseInitiatorQuery(query.initiator) };
}

/** `member:<imOpenId>`, `apiToken:<id>` or `serviceAccount:<id>` (the picker's `initiator`) as a run line names it. */
export function parseInitiatorQuery(text: string): InitiatedBy {
  const colon = text.indexOf(':');
  const type = text.slice(0, colon) as InitiatedBy['type'];
  const name = text.slice(colon + 1);
  if (colon < 1 || !(type in INITIATOR_KINDS) || name === '')
    throw badRequest('initiator is member:<imOpenId>, apiToken:<id> or serviceAccount:<id>.', [
      { path: '/query/initiator', message: 'must be member:<imOpenId>, apiToken:<id> or serviceAccount:<id>' },
    ]);
  return { type, [INITIATOR_KINDS[type].field]: name };
}

/**
 * Admission (docs/policies-and-admission.md): may this run start? Every check of the decision is
 * here, and the model picker answers from the same context and the same model check, so a model
 * the picker offers is a model admission allows. It changes nothing.
 */
export class AdmissionService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly store: PolicyStore,
    private readonly policies: PolicyService,
    private readonly reads: AdmissionReads,
    private readonly clock: Clock,
  ) {}

  async admit(organizationId: string, request: AdmissionRequest): Promise<AdmissionDecision> {
    const [context, limits] = await Promise.all([
      this.context(organizationId, request.projectId, request.initiatedBy),
      this.limits(organizationId),
    ]);
    const reasons = [
      ...context.standing,
      ...(await this.roleReasons(organizationId, request)),
      ...this.modelReasons(context, request.model),
      ...(await this.providerReasons(context, request.provider)),
      ...(await this.capabilityReasons(context, request.capabilities ?? [])),
    ];
    return { decision: reasons.length === 0 ? 'allow' : 'deny', reasons, limits };
  }

  /** The model picker for a project and an initiator: each model with whether admission allows it, and why not. */
  async picker(
    organizationId: string,
    projectId: string,
    initiatedBy: InitiatedBy,
  ): Promise<Array<AgentModel & { allowed: boolean; reasons: Reason[] }>> {
    const context = await this.context(organizationId, projectId, initiatedBy);
    return this.reads.models().map((model) => {
      const reasons = [...context.standing, ...this.modelReasons(context, model.id)];
      return { ...model, allowed: reasons.length === 0, reasons };
    });
  }

  /**
   * Whether a run in the project by the initiator may use each capability: admission's own
   * answer for a run asking for it, from one context for the whole list.
   */
  async capabilityList(
    organizationId: string,
    projectId: string,
    initiatedBy: InitiatedBy,
    capabilityIds: readonly string[],
  ): Promise<Map<string, Reason[]>> {
    const context = await this.context(organizationId, projectId, initiatedBy);
    const answers = new Map<string, Reason[]>();
    for (const id of capabilityIds)
      answers.set(id, [...context.standing, ...(await this.capabilityReasons(context, [{ id }]))]);
    return answers;
  }

  async context(organizationId: string, projectId: string, initiatedBy: InitiatedBy): Promise<AdmissionContext> {
    try {
      checkInitiator(initiatedBy);
    } catch (err) {
      throw badRequest(`${(err as Error).message}.`, [{ path: '/body/initiatedBy', message: (err as Error).message }]);
    }
    const db = this.uow.executor;
    const [project, principal, folderPath, policies] = await Promise.all([
      this.reads.project(db, organizationId, projectId),
      this.principal(db, organizationId, initiatedBy),
      this.store.pathOfProject(db, organizationId, projectId),
      this.policies.current(organizationId),
    ]);
    const standing: Reason[] = [];
    const projectSource = { type: 'project' as const, id: projectId, label: project?.name ?? null };
    if (!project)
      standing.push(
        reason('project_access_denied', projectSource, `There is no project ${projectId} in this organization.`),
      );
    else if (project.archived_at)
      standing.push(reason('project_archived', projectSource, `The project "${project.name}" is archived.`));
    const teams = principal.found
      ? (await this.reads.teamsOf(db, principal.found.userId)).filter((t) => t.organization_id === organizationId)
      : [];
    if (!principal.found) standing.push(principal.refusal);
    else if (
      project &&
      !grantAtLeast(await this.reads.grantOf(organizationId, principal.found.userId, project.id), 'READ')
    )
      standing.push(
        reason(
          'project_access_denied',
          principal.found.source,
          `${principal.found.source.label} holds no READ or higher grant on the project "${project.name}".`,
        ),
      );
    if (principal.found) {
      const run: BudgetedRun = {
        projectId,
        folderIds: folderPath.map((f) => f.id),
        teamIds: teams.map((t) => t.id),
        ...principal.found.budgeted,
      };
      for (const budget of await this.reads.blockingBudgets(organizationId, run))
        standing.push(
          reason(
            'budget_exceeded',
            { type: 'budget', id: budget.id, label: budget.name },
            `The budget "${budget.name}" blocks runs: ${budget.status.spent} of its ${Number(budget.amount)} ` +
              `(${budget.metric}) is spent this ${budget.period}.`,
          ),
        );
    }
    const byScope = new Map(policies.map((p) => [`${p.scope_type}:${p.scope_id}`, parseAllow(p.allow)]));
    const scoped = (source: PolicySource & { id: string }, key: string): ScopedAllow[] => {
      const allow = byScope.get(key);
      return allow ? [{ source, allow }] : [];
    };
    const path = [
      ...scoped({ type: 'organization', id: '', label: null }, 'organization:'),
      ...folderPath.flatMap((f) => scoped({ type: 'folder', id: f.id, label: f.name }, `folder:${f.id}`)),
      ...(project ? scoped({ type: 'project', id: project.id, label: project.name }, `project:${project.id}`) : []),
    ].map(({ source, allow }) => ({
      source: source.type === 'organization' ? { ...source, id: null } : source,
      allow,
    }));
    const teamPolicies = teams.flatMap((t) => scoped({ type: 'team', id: t.id, label: t.name }, `team:${t.id}`));
    return { organizationId, standing, chain: { path, teams: teamPolicies } };
  }

  /** The one model check: in the picker, and allowed by the effective policy. */
  modelReasons(context: AdmissionContext, model: string): Reason[] {
    if (!this.reads.models().some((m) => m.id === model))
      return [
        reason(
          'model_unknown',
          { type: 'model', id: model, label: null },
          `The model "${model}" is not in the model picker.`,
        ),
      ];
    return refusals(context.chain, permitsModel(model), 'model_not_allowed', `the model "${model}"`);
  }

  private async roleReasons(organizationId: string, request: AdmissionRequest): Promise<Reason[]> {
    if (request.roleId === undefined) return [];
    const role = await this.reads.role(this.uow.executor, organizationId, request.roleId);
    const source = { type: 'role' as const, id: request.roleId, label: role?.label ?? null };
    if (!role) return [reason('role_disabled', source, `There is no agent role "${request.roleId}".`)];
    if (role.disabled_at) return [reason('role_disabled', source, `The agent role "${role.label}" is disabled.`)];
    if (role.tools === null) return [];
    const tools = new Set(JSON.parse(role.tools) as string[]);
    return (request.capabilities ?? []).flatMap((capability) =>
      (capability.tools ?? [])
        .filter((tool) => !tools.has(tool))
        .map((tool) =>
          reason('tool_not_allowed', source, `The agent role "${role.label}" does not name the tool "${tool}".`),
        ),
    );
  }

  private async providerReasons(context: AdmissionContext, provider: string | undefined): Promise<Reason[]> {
    if (provider === undefined) return [];
    const connection = await this.reads.provider(this.uow.executor, context.organizationId, provider);
    const source = { type: 'provider' as const, id: provider, label: null };
    const reasons = refusals(
      context.chain,
      permitsProvider(provider),
      'provider_unavailable',
      `the provider "${provider}"`,
    );
    if (connection?.status !== 'ACTIVE')
      reasons.push(
        reason(
          'provider_unavailable',
          source,
          connection
            ? `The provider connection "${provider}" is ${connection.status}, not ACTIVE.`
            : `The organization has no provider connection "${provider}".`,
        ),
      );
    return reasons;
  }

  private async capabilityReasons(
    context: AdmissionContext,
    capabilities: NonNullable<AdmissionRequest['capabilities']>,
  ): Promise<Reason[]> {
    const reasons: Reason[] = [];
    for (const { id, tools = [] } of capabilities) {
      const connection = await this.reads.capability(this.uow.executor, context.organizationId, id);
      if (connection?.status !== 'ACTIVE')
        reasons.push(
          reason(
            'capability_unavailable',
            { type: 'capability', id, label: connection?.label ?? null },
            connection
              ? `The capability connection "${connection.label}" is ${connection.status}, not ACTIVE.`
              : `The organization has no capability connection "${id}".`,
          ),
        );
      const refused = refusals(
        context.chain,
        permitsCapability(id),
        'capability_unavailable',
        `the capability "${id}"`,
      );
      reasons.push(...refused);
      if (refused.length > 0) continue;
      for (const tool of tools)
        reasons.push(
          ...refusals(context.chain, permitsTool(id, tool), 'tool_not_allowed', `the tool "${tool}" of "${id}"`),
        );
    }
    return reasons;
  }

  private async limits(organizationId: string): Promise<Limits> {
    const values = await Promise.all(RUN_LIMIT_DIMENSIONS.map((d) => this.reads.limit(organizationId, d)));
    return Object.fromEntries(RUN_LIMIT_DIMENSIONS.map((d, i) => [d, values[i]!])) as Limits;
  }

  private async principal(
    db: Executor,
    organizationId: string,
    initiatedBy: InitiatedBy,
  ): Promise<{ found: Principal; refusal?: never } | { found?: never; refusal: Reason }> {
    const kind = INITIATOR_KINDS[initiatedBy.type];
    const name = initiatedBy[kind.field]!;
    const source = { type: 'initiator' as const, id: name, label: kind.describe(name) };
    const unknown = (why: string) => ({ refusal: reason('initiator_unknown', source, why) });
    const resolved = (await kind.resolve(db, organizationId, [name])).get(name);
    if (!resolved) return unknown(`There is no ${kind.describe(name)} in this organization.`);
    if (initiatedBy.type === 'member')
      return {
        found: {
          userId: resolved.id,
          source,
          budgeted: { memberId: resolved.id, apiTokenId: null, serviceAccountId: null },
        },
      };
    if (initiatedBy.type === 'serviceAccount') {
      const account = await this.reads.serviceAccount(db, organizationId, resolved.id);
      if (!account) return unknown(`The ${kind.describe(name)} is deleted.`);
      if (account.disabled_at) return unknown(`The ${kind.describe(name)} is disabled.`);
      return {
        found: {
          userId: resolved.id,
          source,
          budgeted: { memberId: null, apiTokenId: null, serviceAccountId: resolved.id },
        },
      };
    }
    if (!(await this.store.liveToken(db, organizationId, resolved.id, this.clock.now().toISOString())))
      return unknown(`The ${kind.describe(name)} is revoked or expired.`);
    // A token acts as its owner: a member, or a service account (whose user is the account's id).
    const { memberId, serviceAccountId } = resolved;
    if (serviceAccountId && (await this.reads.serviceAccount(db, organizationId, serviceAccountId))?.disabled_at)
      return unknown(`The service account that owns the ${kind.describe(name)} is disabled.`);
    return {
      found: {
        userId: (memberId ?? serviceAccountId)!,
        source,
        budgeted: { memberId, apiTokenId: resolved.id, serviceAccountId },
      },
    };
  }
}

/** The refusals of one thing by the effective policy: one reason per policy that keeps it out. */
function refusals(
  chain: PolicyChain,
  permits: Parameters<typeof refusedBy>[1],
  code: Reason['code'],
  what: string,
): Reason[] {
  return refusedBy(chain, permits).map((source) =>
    reason(
      code,
      source,
      source.type === 'team'
        ? `${describeSource(source)} does not allow ${what}, and no other team of the initiator's allows it.`
        : `${describeSource(source)} does not allow ${what}.`,
    ),
  );
}
