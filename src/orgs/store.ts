import { randomUUID } from 'node:crypto';
import type { Executor } from '../db/unit-of-work.js';
import { type MembershipProfile, membershipProfileColumns, shownName } from '../users/shown-profile.js';
import type { AutoJoinDisabled, AutoJoinRecord } from '../auto-join/rule.js';
import { type TokenPolicy, tokenPolicyFromStored } from '../api-tokens/policy.js';
import type { MembershipOrigin } from '../members/origin.js';

export type OrgRole = 'OWNER' | 'ADMIN' | 'MEMBER';

/** An organization's row. */
export interface OrganizationRecord {
  id: string;
  slug: string;
  name: string;
  /** `ACTIVE`, or `DELETING` between `deleteOrganization` and the purge. */
  status: string;
  /** While DELETING, when the purge removes the organization; else null. */
  purge_at: string | null;
  created_at: string;
}

/** The organization's columns a membership is read with. */
export type MemberOrganizationRecord = Omit<OrganizationRecord, 'created_at'>;

/** An active membership, as authorization sees it: the organization's row and the caller's role there. */
export interface OrgAccess {
  organization: MemberOrganizationRecord;
  role: OrgRole;
  /** The caller's name as this organization shows it (src/users/shown-profile.ts): its audit log's actor. */
  memberName: string;
}

type AccessRow = MemberOrganizationRecord & { role: OrgRole; member_name: string };

/** An organization's settings row, its flag a boolean on both databases. */
export interface OrgSettingsRecord {
  members_can_create_projects: boolean;
  auto_join: AutoJoinRecord | null;
  /** Set while the rule is kept but switched off; null while it applies (or there is none). */
  auto_join_disabled: AutoJoinDisabled | null;
  /** The API-token policy, every rule present (defaults where never set). */
  token_policy: TokenPolicy;
}

/** An organization whose automatic-membership rule names a provider. */
export interface AutoJoinRule {
  organizationId: string;
  rule: AutoJoinRecord;
}

/** The settings a change sets, checked and normalized by the service. */
export interface OrgSettingsUpdate {
  membersCanCreateProjects?: boolean | undefined;
  autoJoin?: AutoJoinRecord | null | undefined;
  /** The whole policy to keep (the service merges a partial change into the current one). */
  tokenPolicy?: TokenPolicy | undefined;
}

interface StoredSettings {
  members_can_create_projects: boolean | number;
  auto_join_provider_id: string | null;
  auto_join: string | null;
  auto_join_disabled: string | null;
  token_policy: string | null;
}

const SETTINGS_COLUMNS = [
  'members_can_create_projects',
  'auto_join_provider_id',
  'auto_join',
  'auto_join_disabled',
  'token_policy',
];

const fromStored = (row: StoredSettings | undefined): OrgSettingsRecord => ({
  // SQLite hands booleans back as 0/1.
  members_can_create_projects: Boolean(row?.members_can_create_projects),
  auto_join:
    row?.auto_join_provider_id && row.auto_join
      ? { providerId: row.auto_join_provider_id, ...(JSON.parse(row.auto_join) as Omit<AutoJoinRecord, 'providerId'>) }
      : null,
  auto_join_disabled: row?.auto_join_disabled ? (JSON.parse(row.auto_join_disabled) as AutoJoinDisabled) : null,
  token_policy: tokenPolicyFromStored(row?.token_policy),
});

const ORG_COLUMNS = ['o.id', 'o.slug', 'o.name', 'o.status', 'o.purge_at'] as const;

export class OrganizationStore {
  /** The caller's active membership in the organization with this slug, if any. */
  async findActiveMembership(db: Executor, userId: string, slug: string): Promise<OrgAccess | undefined> {
    const row = await memberships(db)
      .where({ 'm.user_id': userId, 'o.slug': slug })
      .whereNull('m.revoked_at')
      .first<AccessRow | undefined>(accessColumns(db));
    return row && toAccess(row);
  }

  /** Every organization the user is an active member of, by name. */
  async listActiveMemberships(db: Executor, userId: string): Promise<OrgAccess[]> {
    const rows = await memberships(db)
      .where({ 'm.user_id': userId })
      .whereNull('m.revoked_at')
      .orderBy([{ column: 'o.name' }, { column: 'o.slug' }])
      .select<AccessRow[]>(accessColumns(db));
    return rows.map(toAccess);
  }

  findBySlug(db: Executor, slug: string): Promise<OrganizationRecord | undefined> {
    return db<OrganizationRecord>('organizations')
      .where({ slug })
      .first('id', 'slug', 'name', 'status', 'purge_at', 'created_at');
  }

  /**
   * Whether the slug is taken: by an organization, or as the old slug of a renamed one whose
   * redirect has not run out at `now` (the slug still leads there).
   */
  async slugExists(db: Executor, slug: string, now?: Date): Promise<boolean> {
    if ((await db('organizations').where({ slug }).first('id')) !== undefined) return true;
    if (!now) return false;
    const held = await db('organization_slug_redirects')
      .where({ slug })
      .where('expires_at', '>', now.toISOString())
      .first('slug');
    return held !== undefined;
  }

  /** The organization's row; `lock` holds it until the transaction ends (PostgreSQL). */
  async findById(db: Executor, id: string, options: { lock?: boolean } = {}): Promise<OrganizationRecord | undefined> {
    const query = db<OrganizationRecord>('organizations').where({ id });
    if (options.lock) query.forUpdate();
    return query.first('id', 'slug', 'name', 'status', 'purge_at', 'created_at');
  }

  /** Sets the name and slug; a slug given up keeps leading here until `redirectUntil`. */
  async rename(
    trx: Executor,
    org: OrganizationRecord,
    change: { name: string; slug: string },
    at: string,
    redirectUntil: string,
  ): Promise<void> {
    await trx('organizations').where({ id: org.id }).update(change);
    if (change.slug === org.slug) return;
    // The new slug stops being an old one, of this organization or (after its redirect ran out) another's.
    await trx('organization_slug_redirects').where({ slug: change.slug }).delete();
    await trx('organization_slug_redirects').insert({
      slug: org.slug,
      organization_id: org.id,
      expires_at: redirectUntil,
      created_at: at,
    });
  }

  /**
   * Where an old slug leads for this user at `now`: the current slug of the organization that
   * gave it up, while its redirect runs and the user is an active member there; else undefined.
   */
  async renamedTo(db: Executor, userId: string, slug: string, now: Date): Promise<string | undefined> {
    const row = await db('organization_slug_redirects as r')
      .join('organizations as o', 'o.id', 'r.organization_id')
      .join('memberships as m', (on) => on.on('m.organization_id', 'o.id').andOnVal('m.user_id', userId))
      .where('r.slug', slug)
      .where('r.expires_at', '>', now.toISOString())
      .whereNull('m.revoked_at')
      .first<{ slug: string } | undefined>('o.slug');
    return row?.slug;
  }

  /** Starts or ends the organization's deletion: DELETING until `purgeAt`, or ACTIVE again (null). */
  async setDeletion(trx: Executor, id: string, deletion: { at: string; purgeAt: string } | null): Promise<void> {
    await trx('organizations')
      .where({ id })
      .update(
        deletion
          ? { status: 'DELETING', deleted_at: deletion.at, purge_at: deletion.purgeAt }
          : { status: 'ACTIVE', deleted_at: null, purge_at: null },
      );
  }

  /** The organizations being deleted whose purge time has come at `now`, oldest first. */
  dueForPurge(db: Executor, now: Date, limit: number): Promise<OrganizationRecord[]> {
    return db<OrganizationRecord>('organizations')
      .where({ status: 'DELETING' })
      .where('purge_at', '<=', now.toISOString())
      .orderBy('purge_at')
      .limit(limit)
      .select('id', 'slug', 'name', 'status', 'purge_at', 'created_at');
  }

  /** Every organization, by slug (the host console's list). */
  listAll(db: Executor): Promise<OrganizationRecord[]> {
    return db<OrganizationRecord>('organizations')
      .orderBy('slug')
      .select('id', 'slug', 'name', 'status', 'purge_at', 'created_at');
  }

  async count(db: Executor): Promise<number> {
    const row = await db('organizations').count<{ n: number | string }[]>({ n: '*' }).first();
    return Number(row?.n ?? 0);
  }

  /**
   * Inserts the organization and its settings row, with its first owner when `ownerUserId` is
   * given (else it waits for one: src/orgs/pending-owner.ts); run inside a transaction.
   */
  async insertWithOwner(
    trx: Executor,
    input: { slug: string; name: string; ownerUserId?: string; ownerProfile?: MembershipProfile },
    now: Date,
  ): Promise<OrganizationRecord> {
    const at = now.toISOString();
    const org: OrganizationRecord = {
      id: randomUUID(),
      slug: input.slug,
      name: input.name,
      status: 'ACTIVE',
      purge_at: null,
      created_at: at,
    };
    await trx('organizations').insert(org);
    await trx('organization_settings').insert({
      organization_id: org.id,
      members_can_create_projects: false,
      updated_at: at,
    });
    if (input.ownerUserId === undefined) return org;
    await this.insertMembership(
      trx,
      {
        organizationId: org.id,
        userId: input.ownerUserId,
        role: 'OWNER',
        profile: input.ownerProfile,
        origin: 'console',
      },
      now,
    );
    return org;
  }

  async insertMembership(
    trx: Executor,
    input: {
      organizationId: string;
      userId: string;
      role: OrgRole;
      profile?: MembershipProfile | undefined;
      origin?: MembershipOrigin;
    },
    now: Date,
  ): Promise<void> {
    await trx('memberships').insert({
      id: randomUUID(),
      organization_id: input.organizationId,
      user_id: input.userId,
      role: input.role,
      origin: input.origin ?? 'manual',
      ...membershipProfileColumns(input.profile ?? {}),
      created_at: now.toISOString(),
      revoked_at: null,
    });
  }

  /**
   * The organization's settings; `lock` holds their row until the transaction ends (PostgreSQL;
   * SQLite's single writer already serializes), so a change reads the state it replaces.
   */
  async getSettings(
    db: Executor,
    organizationId: string,
    options: { lock?: boolean } = {},
  ): Promise<OrgSettingsRecord> {
    const query = db('organization_settings').where({ organization_id: organizationId });
    if (options.lock) query.forUpdate();
    const row = await query.first<StoredSettings | undefined>(SETTINGS_COLUMNS);
    return fromStored(row);
  }

  /**
   * The organizations whose rule names the provider and applies (an index range; switched-off
   * rules left out, and those of an organization being deleted, which admits nobody).
   */
  async autoJoinRulesOf(db: Executor, providerId: string): Promise<AutoJoinRule[]> {
    const rows = await db('organization_settings')
      .where({ auto_join_provider_id: providerId })
      .whereNull('auto_join_disabled')
      .whereNotExists(
        db('organizations')
          .whereRaw('organizations.id = organization_settings.organization_id')
          .where('status', 'DELETING'),
      )
      .orderBy('organization_id')
      .select<(StoredSettings & { organization_id: string })[]>('organization_id', ...SETTINGS_COLUMNS);
    return rows.map((row) => ({ organizationId: row.organization_id, rule: fromStored(row).auto_join! }));
  }

  async updateSettings(
    db: Executor,
    organizationId: string,
    patch: OrgSettingsUpdate,
    now: Date,
  ): Promise<OrgSettingsRecord> {
    const changes: Record<string, unknown> = { updated_at: now.toISOString() };
    if (patch.membersCanCreateProjects !== undefined)
      changes.members_can_create_projects = patch.membersCanCreateProjects;
    if (patch.autoJoin !== undefined) {
      const { providerId, ...rest } = patch.autoJoin ?? { providerId: null };
      changes.auto_join_provider_id = providerId;
      changes.auto_join = patch.autoJoin === null ? null : JSON.stringify(rest);
      // A rule set now was checked against the verified domains: it applies.
      changes.auto_join_disabled = null;
    }
    if (patch.tokenPolicy !== undefined) changes.token_policy = JSON.stringify(patch.tokenPolicy);
    await db('organization_settings').where({ organization_id: organizationId }).update(changes);
    return this.getSettings(db, organizationId);
  }

  /** The organizations that set a token policy, with it (the token sweep reads them all). */
  async tokenPolicies(db: Executor): Promise<Array<{ organizationId: string; policy: TokenPolicy }>> {
    const rows = await db('organization_settings')
      .whereNotNull('token_policy')
      .select<{ organization_id: string; token_policy: string }[]>('organization_id', 'token_policy');
    return rows.map((row) => ({
      organizationId: row.organization_id,
      policy: tokenPolicyFromStored(row.token_policy),
    }));
  }
}

/** The membership's row split into the organization's row and the role. */
const memberships = (db: Executor) =>
  db('memberships as m')
    .join('organizations as o', 'o.id', 'm.organization_id')
    .join('users as u', 'u.id', 'm.user_id');

const accessColumns = (db: Executor) => [
  ...ORG_COLUMNS,
  'm.role',
  shownName(db, { user: 'u', membership: 'm' }, 'member_name'),
];

const toAccess = ({ role, member_name, ...organization }: AccessRow): OrgAccess => ({
  organization,
  role,
  memberName: member_name,
});
