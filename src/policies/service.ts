import { randomUUID } from 'node:crypto';
import type { Schema } from '../api/types.js';
import { recordChange } from '../audit/trail.js';
import type { Clock } from '../config/clock.js';
import type { Executor, UnitOfWork } from '../db/unit-of-work.js';
import { badRequest, conflict, notFound, unprocessable } from '../errors/api-error.js';
import { requireLive, type ProjectRecord } from '../projects/project.js';
import { PROCESS_LOCAL, TtlCache, type CacheInvalidations } from '../shared/ttl-cache.js';
import { policyProjection } from './projection.js';
import type { Allow } from './resolver.js';
import { isScopeCollision, type PolicyRecord, type PolicyStore } from './store.js';

export type CreatePolicyInput = Schema<'CreateUsagePolicyRequest'>;
type PolicyScope = CreatePolicyInput['scope'];

/** What a policy's scope may name, as its own store finds it. */
export interface PolicyScopes {
  activeFolder(db: Executor, organizationId: string, folderId: string): Promise<unknown>;
  project(db: Executor, organizationId: string, projectId: string): Promise<ProjectRecord | undefined>;
  activeTeam(db: Executor, organizationId: string, teamId: string): Promise<unknown>;
}

/** How a scope id the organization does not have (live) is refused, per scope type. */
const SCOPE_CHECKS: Record<
  Exclude<PolicyScope['type'], 'organization'>,
  (scopes: PolicyScopes, db: Executor, org: string, id: string) => Promise<void>
> = {
  folder: async (scopes, db, org, id) => {
    if (!(await scopes.activeFolder(db, org, id)))
      throw notFound('folder_not_found', `No folder ${id} in this organization.`);
  },
  project: async (scopes, db, org, id) => {
    const project = await scopes.project(db, org, id);
    if (!project) throw notFound('project_not_found', `No project ${id} in this organization.`);
    requireLive(project);
  },
  team: async (scopes, db, org, id) => {
    if (!(await scopes.activeTeam(db, org, id)))
      throw notFound('team_not_found', `No team ${id} in this organization.`);
  },
};

const policyNotFound = (id: string) => notFound('policy_not_found', `No usage policy "${id}" in this organization.`);
const scopeTaken = (scope: PolicyScope) =>
  conflict(
    'policy_exists',
    scope.type === 'organization'
      ? 'The organization already has its own usage policy; change that one.'
      : `The ${scope.type} ${scope.id} already has a usage policy; change that one.`,
  );

/**
 * Usage policies (docs/policies-and-admission.md): one per scope, each an allow of models,
 * providers and capabilities. The organization's policies are cached in the process for
 * admission and the model picker, which ask on every run; a change clears the organization's
 * entry here at once and, through the cache invalidations (LISTEN/NOTIFY on PostgreSQL), in every
 * other instance before the change is answered.
 */
export class PolicyService {
  private readonly cache: TtlCache<PolicyRecord[]>;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly store: PolicyStore,
    private readonly scopes: PolicyScopes,
    private readonly modelIds: () => readonly string[],
    private readonly clock: Clock,
    cacheTtlMs: number,
    invalidations: CacheInvalidations = PROCESS_LOCAL,
  ) {
    this.cache = new TtlCache(cacheTtlMs, undefined, { name: 'usage-policies', invalidations });
  }

  list(organizationId: string): Promise<PolicyRecord[]> {
    return this.store.list(this.uow.executor, organizationId);
  }

  /** The organization's policies as admission reads them: from the cache when it holds them. */
  async current(organizationId: string): Promise<PolicyRecord[]> {
    const cached = await this.cache.getSettled(organizationId, this.clock.now().getTime());
    if (cached) return cached;
    const readAt = this.cache.mark();
    const policies = await this.store.list(this.uow.executor, organizationId);
    this.cache.set(organizationId, policies, this.clock.now().getTime(), readAt);
    return policies;
  }

  async get(organizationId: string, id: string): Promise<PolicyRecord> {
    const found = await this.store.find(this.uow.executor, organizationId, id);
    if (!found) throw policyNotFound(id);
    return found;
  }

  async create(organizationId: string, input: CreatePolicyInput): Promise<PolicyRecord> {
    const allow = this.checkedAllow(input.allow);
    const at = this.clock.now().toISOString();
    const created = await this.uow.run(async (trx) => {
      const scopeId = await this.checkScope(trx, organizationId, input.scope);
      if (await this.store.findByScope(trx, organizationId, input.scope.type, scopeId)) throw scopeTaken(input.scope);
      const row: PolicyRecord = {
        id: randomUUID(),
        organization_id: organizationId,
        scope_type: input.scope.type,
        scope_id: scopeId,
        allow: JSON.stringify(allow),
        created_at: at,
        updated_at: at,
      };
      await this.store.insert(trx, row).catch((err: unknown) => {
        throw isScopeCollision(err) ? scopeTaken(input.scope) : err;
      });
      await recordPolicyChange(trx, null, row);
      return row;
    });
    await this.cache.invalidate(organizationId);
    return created;
  }

  async update(organizationId: string, id: string, input: { allow: Allow }): Promise<PolicyRecord> {
    const allow = JSON.stringify(this.checkedAllow(input.allow));
    const at = this.clock.now().toISOString();
    const updated = await this.uow.run(async (trx) => {
      const before = await this.store.find(trx, organizationId, id);
      if (!before) throw policyNotFound(id);
      if (before.allow === allow) return before;
      await this.store.update(trx, id, allow, at);
      const after = { ...before, allow, updated_at: at };
      await recordPolicyChange(trx, before, after);
      return after;
    });
    await this.cache.invalidate(organizationId);
    return updated;
  }

  async delete(organizationId: string, id: string): Promise<void> {
    await this.uow.run(async (trx) => {
      const before = await this.store.find(trx, organizationId, id);
      if (!before) throw policyNotFound(id);
      await this.store.delete(trx, id);
      await recordPolicyChange(trx, before, null);
    });
    await this.cache.invalidate(organizationId);
  }

  /** The allow as stored: every model it names is in the picker, a capability's tools without repeats. */
  private checkedAllow(allow: Allow): Allow {
    const known = new Set(this.modelIds());
    const unknown = (allow.models ?? []).find((model) => !known.has(model));
    if (unknown !== undefined)
      throw unprocessable('unknown_model', `The model "${unknown}" is not in the model picker (HUB_MODELS).`);
    const ids = (allow.capabilities ?? []).map((entry) => entry.id);
    const repeated = ids.findIndex((id, index) => ids.indexOf(id) !== index);
    if (repeated !== -1)
      throw badRequest(`The capability "${ids[repeated]}" is listed twice.`, [
        { path: `/body/allow/capabilities/${repeated}`, message: 'repeats a capability listed before it' },
      ]);
    return allow;
  }

  /** The scope's stored id ('' for the organization), refused unless the organization has it live. */
  private async checkScope(db: Executor, organizationId: string, scope: PolicyScope): Promise<string> {
    if (scope.type === 'organization') {
      if (scope.id !== undefined)
        throw badRequest("The organization's policy takes no scope id.", [
          { path: '/body/scope/id', message: 'must be absent for the organization' },
        ]);
      return '';
    }
    if (scope.id === undefined)
      throw badRequest(`A ${scope.type} policy names its ${scope.type}.`, [
        { path: '/body/scope/id', message: `must name a ${scope.type}` },
      ]);
    await SCOPE_CHECKS[scope.type](this.scopes, db, organizationId, scope.id);
    return scope.id;
  }
}

async function recordPolicyChange(trx: Executor, before: PolicyRecord | null, after: PolicyRecord | null) {
  const row = (after ?? before)!;
  await recordChange(trx, {
    organizationId: row.organization_id,
    target: {
      type: 'usage_policy',
      id: row.id,
      label: row.scope_type === 'organization' ? 'organization' : `${row.scope_type} ${row.scope_id}`,
    },
    before: before && policyProjection.toApi(before),
    after: after && policyProjection.toApi(after),
  });
}
