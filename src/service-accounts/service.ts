import { randomUUID } from 'node:crypto';
import type { ApiTokenService } from '../api-tokens/service.js';
import { recordChange } from '../audit/trail.js';
import type { Clock } from '../config/clock.js';
import type { Executor, UnitOfWork } from '../db/unit-of-work.js';
import { conflict, notFound } from '../errors/api-error.js';
import type { OrgAccessResolver } from '../orgs/org-access-resolver.js';
import type { TeamStore } from '../teams/store.js';
import type { Schema } from '../api/types.js';
import { type ServiceAccountRecord, type ServiceAccountWithTeams, serviceAccountProjection } from './projection.js';
import type { ServiceAccountStore } from './store.js';

export type CreateServiceAccountInput = Schema<'CreateServiceAccountRequest'>;
export type UpdateServiceAccountInput = Schema<'UpdateServiceAccountRequest'>;

/** Who changes service accounts: an org admin (`userId`), or the host console (null). */
export interface ServiceAccountCaller {
  organizationId: string;
  userId: string | null;
}

const accountNotFound = (id: string) =>
  notFound('service_account_not_found', `No service account with the id "${id}" in this organization.`);
const nameTaken = (name: string) =>
  conflict('service_account_exists', `The organization already has a service account named "${name}".`);

/** Whether an error is the database refusing a second live account of one name (the partial unique index). */
const isNameCollision = (err: unknown) =>
  err instanceof Error &&
  /service_accounts_live_name_unique|UNIQUE constraint failed: service_accounts/.test(err.message);

/**
 * Service accounts: machine identities an organization owns. Each is a principal like a member
 * (a user row with an org membership carrying its role, MEMBER or ADMIN), so teams, grants and the
 * authorization of its tokens work unchanged; it never signs in, is no member in lists and takes
 * no `memberCount` seat. Its tokens outlive whoever created them.
 */
export class ServiceAccountService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly store: ServiceAccountStore,
    private readonly teams: TeamStore,
    private readonly apiTokens: ApiTokenService,
    private readonly orgAccess: OrgAccessResolver,
    private readonly clock: Clock,
  ) {}

  async create(caller: ServiceAccountCaller, input: CreateServiceAccountInput): Promise<ServiceAccountWithTeams> {
    const id = randomUUID();
    const name = input.name.trim();
    const created = await this.uow.run(async (trx) => {
      if (await this.store.findByName(trx, caller.organizationId, name)) throw nameTaken(name);
      await this.store
        .insert(trx, {
          id,
          organizationId: caller.organizationId,
          name,
          description: input.description ?? null,
          role: input.role ?? 'MEMBER',
          createdBy: caller.userId,
          createdAt: this.clock.now().toISOString(),
        })
        .catch((err: unknown) => {
          throw isNameCollision(err) ? nameTaken(name) : err;
        });
      const account = await this.require(trx, caller.organizationId, id);
      await recordAccountChange(trx, caller.organizationId, null, account);
      return account;
    });
    await this.orgAccess.invalidate();
    return created;
  }

  async list(organizationId: string): Promise<ServiceAccountWithTeams[]> {
    return this.withTeams(this.uow.executor, await this.store.list(this.uow.executor, organizationId));
  }

  get(organizationId: string, id: string): Promise<ServiceAccountWithTeams> {
    return this.require(this.uow.executor, organizationId, id);
  }

  /**
   * The organization's live service account with this id, or undefined: what usage attribution
   * and budgets ask of an initiator `{type: "serviceAccount", id}`.
   */
  async findInOrg(organizationId: string, id: string): Promise<ServiceAccountRecord | undefined> {
    return this.store.find(this.uow.executor, organizationId, id);
  }

  /** The live account of this name (how the host console names one). */
  findByName(organizationId: string, name: string): Promise<ServiceAccountRecord | undefined> {
    return this.store.findByName(this.uow.executor, organizationId, name);
  }

  async update(
    caller: ServiceAccountCaller,
    id: string,
    patch: UpdateServiceAccountInput,
  ): Promise<ServiceAccountWithTeams> {
    const name = patch.name?.trim();
    const updated = await this.uow.run(async (trx) => {
      const before = await this.require(trx, caller.organizationId, id);
      if (name !== undefined && name !== before.name) {
        const holder = await this.store.findByName(trx, caller.organizationId, name);
        if (holder && holder.id !== id) throw nameTaken(name);
      }
      await this.store.update(trx, id, { name, description: patch.description, role: patch.role });
      const after = await this.require(trx, caller.organizationId, id);
      if (!sameAccount(before, after)) await recordAccountChange(trx, caller.organizationId, before, after);
      return after;
    });
    // A new role holds from its tokens' next request on, in every instance.
    await this.orgAccess.invalidate();
    return updated;
  }

  /** Disabled, its tokens are refused; enabled again, they work. Teams, grants and tokens are kept. */
  async setDisabled(caller: ServiceAccountCaller, id: string, disabled: boolean): Promise<ServiceAccountWithTeams> {
    const at = this.clock.now().toISOString();
    const { account, changed } = await this.uow.run(async (trx) => {
      const before = await this.require(trx, caller.organizationId, id);
      if ((before.disabled_at !== null) === disabled) return { account: before, changed: false };
      await this.store.setDisabled(trx, id, disabled ? at : null);
      const after = await this.require(trx, caller.organizationId, id);
      await recordAccountChange(trx, caller.organizationId, before, after);
      return { account: after, changed: true };
    });
    if (changed) await this.apiTokens.forgetCached();
    return account;
  }

  /** Ends the account: its tokens revoked, its teams and its role ended; its audit events stay. */
  async delete(caller: ServiceAccountCaller, id: string): Promise<void> {
    const at = this.clock.now().toISOString();
    await this.uow.run(async (trx) => {
      const before = await this.require(trx, caller.organizationId, id);
      await this.apiTokens.revokeAllOf(trx, caller.organizationId, id, at);
      await this.teams.revokeUserFromOrganization(trx, caller.organizationId, id, at);
      await this.store.markDeleted(trx, id, at);
      await recordAccountChange(trx, caller.organizationId, before, null);
    });
    await this.apiTokens.forgetCached();
    await this.orgAccess.invalidate();
  }

  private async require(trx: Executor, organizationId: string, id: string): Promise<ServiceAccountWithTeams> {
    const account = await this.store.find(trx, organizationId, id);
    if (!account) throw accountNotFound(id);
    return (await this.withTeams(trx, [account]))[0]!;
  }

  private async withTeams(db: Executor, accounts: ServiceAccountRecord[]): Promise<ServiceAccountWithTeams[]> {
    const teams = await this.store.teamsOf(
      db,
      accounts.map((a) => a.id),
    );
    return accounts.map((account) => ({ ...account, teams: teams.get(account.id) ?? [] }));
  }
}

const sameAccount = (a: ServiceAccountWithTeams, b: ServiceAccountWithTeams) =>
  a.name === b.name && a.description === b.description && a.role === b.role;

const recordAccountChange = (
  trx: Executor,
  organizationId: string,
  before: ServiceAccountWithTeams | null,
  after: ServiceAccountWithTeams | null,
) =>
  recordChange(trx, {
    organizationId,
    target: { type: 'service_account', id: (after ?? before)!.id, label: (after ?? before)!.name },
    before: before && serviceAccountProjection.toApi(before),
    after: after && serviceAccountProjection.toApi(after),
  });
