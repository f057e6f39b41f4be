import { randomUUID } from 'node:crypto';
import type { Executor } from '../db/unit-of-work.js';

export type OrgRole = 'OWNER' | 'ADMIN' | 'MEMBER';

export interface Organization {
  id: string;
  slug: string;
  name: string;
  status: string;
}

/** An active membership, as authorization sees it. */
export interface OrgAccess {
  organization: Organization;
  role: OrgRole;
}

export interface OrgSettings {
  membersCanCreateProjects: boolean;
}

interface OrganizationRecord {
  id: string;
  slug: string;
  name: string;
  status: string;
  created_at: string;
}

const ORG_COLUMNS = ['o.id', 'o.slug', 'o.name', 'o.status'] as const;

const toOrganization = (row: Pick<OrganizationRecord, 'id' | 'slug' | 'name' | 'status'>): Organization => ({
  id: row.id,
  slug: row.slug,
  name: row.name,
  status: row.status,
});

export class OrganizationStore {
  /** The caller's active membership in the organization with this slug, if any. */
  async findActiveMembership(db: Executor, userId: string, slug: string): Promise<OrgAccess | undefined> {
    const row = await db('memberships as m')
      .join('organizations as o', 'o.id', 'm.organization_id')
      .where({ 'm.user_id': userId, 'o.slug': slug })
      .whereNull('m.revoked_at')
      .first<(OrganizationRecord & { role: OrgRole }) | undefined>([...ORG_COLUMNS, 'm.role']);
    return row && { organization: toOrganization(row), role: row.role };
  }

  /** Every organization the user is an active member of, by name. */
  async listActiveMemberships(db: Executor, userId: string): Promise<OrgAccess[]> {
    const rows = await db('memberships as m')
      .join('organizations as o', 'o.id', 'm.organization_id')
      .where({ 'm.user_id': userId })
      .whereNull('m.revoked_at')
      .orderBy([{ column: 'o.name' }, { column: 'o.slug' }])
      .select<(OrganizationRecord & { role: OrgRole })[]>([...ORG_COLUMNS, 'm.role']);
    return rows.map((row) => ({ organization: toOrganization(row), role: row.role }));
  }

  async findBySlug(db: Executor, slug: string): Promise<Organization | undefined> {
    const row = await db<OrganizationRecord>('organizations').where({ slug }).first();
    return row && toOrganization(row);
  }

  async slugExists(db: Executor, slug: string): Promise<boolean> {
    return (await db('organizations').where({ slug }).first('id')) !== undefined;
  }

  async count(db: Executor): Promise<number> {
    const row = await db('organizations').count<{ n: number | string }[]>({ n: '*' }).first();
    return Number(row?.n ?? 0);
  }

  /** Inserts the organization, its settings row and its first owner; run inside a transaction. */
  async insertWithOwner(
    trx: Executor,
    input: { slug: string; name: string; ownerUserId: string },
    now: Date,
  ): Promise<Organization> {
    const at = now.toISOString();
    const org: OrganizationRecord = {
      id: randomUUID(),
      slug: input.slug,
      name: input.name,
      status: 'ACTIVE',
      created_at: at,
    };
    await trx('organizations').insert(org);
    await trx('organization_settings').insert({
      organization_id: org.id,
      members_can_create_projects: false,
      updated_at: at,
    });
    await this.insertMembership(trx, { organizationId: org.id, userId: input.ownerUserId, role: 'OWNER' }, now);
    return toOrganization(org);
  }

  async insertMembership(
    trx: Executor,
    input: { organizationId: string; userId: string; role: OrgRole },
    now: Date,
  ): Promise<void> {
    await trx('memberships').insert({
      id: randomUUID(),
      organization_id: input.organizationId,
      user_id: input.userId,
      role: input.role,
      created_at: now.toISOString(),
      revoked_at: null,
    });
  }

  /**
   * The organization's settings; `lock` holds their row until the transaction ends (PostgreSQL;
   * SQLite's single writer already serializes), so a change reads the state it replaces.
   */
  async getSettings(db: Executor, organizationId: string, options: { lock?: boolean } = {}): Promise<OrgSettings> {
    const query = db('organization_settings').where({ organization_id: organizationId });
    if (options.lock) query.forUpdate();
    const row = await query.first<{ members_can_create_projects: boolean | number } | undefined>(
      'members_can_create_projects',
    );
    // SQLite hands booleans back as 0/1.
    return { membersCanCreateProjects: Boolean(row?.members_can_create_projects) };
  }

  async updateSettings(
    db: Executor,
    organizationId: string,
    patch: Partial<OrgSettings>,
    now: Date,
  ): Promise<OrgSettings> {
    const changes: Record<string, unknown> = { updated_at: now.toISOString() };
    if (patch.membersCanCreateProjects !== undefined)
      changes.members_can_create_projects = patch.membersCanCreateProjects;
    await db('organization_settings').where({ organization_id: organizationId }).update(changes);
    return this.getSettings(db, organizationId);
  }
}
