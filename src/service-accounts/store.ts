import type { Executor } from '../db/unit-of-work.js';
import type { OrgRole } from '../orgs/store.js';
import { shownName } from '../users/shown-profile.js';
import type { ServiceAccountRecord, ServiceAccountTeamRecord } from './projection.js';

/** A service account's user row is recognisable by its kind; its imOpenId is never a chat id. */
export const SERVICE_ACCOUNT_KIND = 'service_account';
export const imOpenIdOfServiceAccount = (id: string) => `service-account:${id}`;

export interface NewServiceAccount {
  id: string;
  organizationId: string;
  name: string;
  description: string | null;
  role: OrgRole;
  createdBy: string | null;
  createdAt: string;
}

/**
 * Service accounts: a `users` row of kind `service_account`, the organization membership that
 * carries its role (named after it, so team lists and the audit log show its name), and its own
 * `service_accounts` row. Deleted accounts keep their rows, for the audit log's sake.
 */
export class ServiceAccountStore {
  async insert(trx: Executor, account: NewServiceAccount): Promise<void> {
    await trx('users').insert({
      id: account.id,
      im_open_id: imOpenIdOfServiceAccount(account.id),
      display_name: account.name,
      avatar_url: null,
      created_at: account.createdAt,
      kind: SERVICE_ACCOUNT_KIND,
    });
    await trx('memberships').insert({
      id: account.id,
      organization_id: account.organizationId,
      user_id: account.id,
      role: account.role,
      display_name: account.name,
      avatar_url: null,
      created_at: account.createdAt,
      revoked_at: null,
    });
    await trx('service_accounts').insert({
      id: account.id,
      organization_id: account.organizationId,
      name: account.name,
      description: account.description,
      created_by: account.createdBy,
      created_at: account.createdAt,
      disabled_at: null,
      deleted_at: null,
    });
  }

  /** The organization's live service accounts, in no order. */
  list(db: Executor, organizationId: string): Promise<ServiceAccountRecord[]> {
    return live(db, organizationId);
  }

  find(db: Executor, organizationId: string, id: string): Promise<ServiceAccountRecord | undefined> {
    return live(db, organizationId).where('sa.id', id).first();
  }

  findByName(db: Executor, organizationId: string, name: string): Promise<ServiceAccountRecord | undefined> {
    return live(db, organizationId).where('sa.name', name).first();
  }

  /** The active teams of the accounts, by account id. */
  async teamsOf(db: Executor, ids: readonly string[]): Promise<Map<string, ServiceAccountTeamRecord[]>> {
    const byAccount = new Map<string, ServiceAccountTeamRecord[]>(ids.map((id) => [id, []]));
    if (ids.length === 0) return byAccount;
    const rows = await db('team_members as tm')
      .join('teams as t', 't.id', 'tm.team_id')
      .whereIn('tm.user_id', ids)
      .whereNull('tm.revoked_at')
      .whereNull('t.archived_at')
      .select<(ServiceAccountTeamRecord & { user_id: string })[]>('tm.user_id', 't.id', 't.slug', 't.name');
    for (const { user_id, ...team } of rows) byAccount.get(user_id)?.push(team);
    return byAccount;
  }

  async update(
    trx: Executor,
    id: string,
    patch: { name?: string | undefined; description?: string | null | undefined; role?: OrgRole | undefined },
  ): Promise<void> {
    const own: Record<string, unknown> = {};
    if (patch.name !== undefined) own.name = patch.name;
    if (patch.description !== undefined) own.description = patch.description;
    if (Object.keys(own).length) await trx('service_accounts').where({ id }).update(own);
    if (patch.name !== undefined) await trx('users').where({ id }).update({ display_name: patch.name });
    const membership: Record<string, unknown> = {};
    if (patch.name !== undefined) membership.display_name = patch.name;
    if (patch.role !== undefined) membership.role = patch.role;
    if (Object.keys(membership).length) await trx('memberships').where({ user_id: id }).update(membership);
  }

  async setDisabled(trx: Executor, id: string, at: string | null): Promise<void> {
    await trx('service_accounts').where({ id }).update({ disabled_at: at });
  }

  /** Ends the account: its membership with it (the caller ends its team memberships and tokens). */
  async markDeleted(trx: Executor, id: string, at: string): Promise<void> {
    await trx('service_accounts').where({ id }).update({ deleted_at: at });
    await trx('memberships').where({ user_id: id }).whereNull('revoked_at').update({ revoked_at: at });
  }
}

function live(db: Executor, organizationId: string) {
  return db('service_accounts as sa')
    .join('memberships as m', 'm.user_id', 'sa.id')
    .leftJoin('users as c', 'c.id', 'sa.created_by')
    .leftJoin('memberships as cm', (on) =>
      on.on('cm.user_id', '=', 'sa.created_by').andOn('cm.organization_id', '=', 'sa.organization_id'),
    )
    .where('sa.organization_id', organizationId)
    .whereNull('sa.deleted_at')
    .select<ServiceAccountRecord[]>(
      'sa.id',
      'sa.name',
      'sa.description',
      'm.role',
      'sa.disabled_at',
      'sa.created_at',
      'sa.created_by',
      shownName(db, { user: 'c', membership: 'cm' }, 'created_by_name'),
    );
}
