import { isDeepStrictEqual } from 'node:util';
import { SLUG_PATTERN } from '../shared/slug.js';
import { recordChange } from '../audit/trail.js';
import type { Clock } from '../config/clock.js';
import type { Executor, UnitOfWork } from '../db/unit-of-work.js';
import { emailDomainOf } from '../domains/domain-name.js';
import type { IdentityProvider } from '../identity/provider-store.js';
import { type PendingOwner, PendingOwnerStore } from './pending-owner-store.js';
import { ApiError, badRequestAt, conflict } from '../errors/api-error.js';
import { avatarUrlProblem } from '../users/avatar-url.js';
import type { UserStore } from '../users/store.js';
import { organizationProjection, orgSettingsProjection } from './projection.js';
import type { OrgAccessResolver } from './org-access-resolver.js';
import type { Schema } from '../api/types.js';
import { checkAutoJoinRule } from '../auto-join/rule.js';
import { requireVerifiedDomains, type VerifiedDomains } from '../domains/service.js';
import type { OrganizationRecord, OrganizationStore, OrgSettingsRecord, OrgSettingsUpdate } from './store.js';

export interface CreateOrganizationInput {
  slug: string;
  name: string;
  ownerImOpenId: string;
  ownerDisplayName?: string | undefined;
  /** The owner's avatar (an https URL), stored when the user is created or has none yet. */
  ownerAvatarUrl?: string | undefined;
}

/** An organization whose first OWNER is whoever first signs in through `providerId` as `ownerEmail`. */
export interface CreateAwaitingOwnerInput {
  slug: string;
  name: string;
  ownerEmail: string;
  providerId: string;
}

/** Organizations and their settings. */
export class OrganizationService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly orgs: OrganizationStore,
    private readonly users: UserStore,
    private readonly access: OrgAccessResolver,
    private readonly clock: Clock,
    /** Whether an identity provider with this id is configured (an automatic-membership rule names one). */
    private readonly providerExists: (providerId: string) => Promise<boolean> = async () => false,
    /** The organization's verified domains among some (an automatic-membership rule may name only those). */
    private readonly verifiedDomains: VerifiedDomains = async () => new Set(),
    /** An operator's identity provider by id, which may be named as a pending owner's. */
    private readonly platformProviderOf: (providerId: string) => Promise<IdentityProvider | undefined> = async () =>
      undefined,
    private readonly pendingOwners = new PendingOwnerStore(),
  ) {}

  /** Creates the organization with its first OWNER (created as a user when new), atomically. */
  async create(input: CreateOrganizationInput): Promise<OrganizationRecord> {
    const avatarProblem = input.ownerAvatarUrl === undefined ? undefined : avatarUrlProblem(input.ownerAvatarUrl);
    if (avatarProblem) throw new ApiError(400, 'validation_failed', `The owner's avatar URL ${avatarProblem}.`);
    return this.insert(input, async (trx, now) => {
      // The owner's name and avatar given here are this organization's for them (src/users/shown-profile.ts).
      const ownerProfile = { displayName: input.ownerDisplayName, avatarUrl: input.ownerAvatarUrl };
      const owner = await this.users.ensure(trx, { imOpenId: input.ownerImOpenId, ...ownerProfile }, now);
      const created = await this.orgs.insertWithOwner(
        trx,
        { slug: input.slug, name: input.name.trim(), ownerUserId: owner.id, ownerProfile },
        now,
      );
      return { created, owner: { ownerImOpenId: owner.imOpenId } };
    });
  }

  /**
   * Creates an organization with no member, waiting for its owner: the first sign-in through the
   * operator's provider `providerId` whose verified address is `ownerEmail` makes that person its
   * OWNER (src/orgs/pending-owner.ts). The provider must vouch for the address's domain; the
   * domain is verified for the organization afterwards (`hub domain verify`), before that sign-in.
   */
  async createAwaitingOwner(input: CreateAwaitingOwnerInput): Promise<OrganizationRecord> {
    const email = input.ownerEmail.trim().toLowerCase();
    const domain = emailDomainOf(email);
    if (!domain || email.length > 320 || /\s/.test(email)) {
      throw new ApiError(400, 'validation_failed', `"${input.ownerEmail}" is no email address.`);
    }
    const provider = await this.platformProviderOf(input.providerId);
    if (!provider || provider.organizationId !== null) {
      throw new ApiError(404, 'identity_provider_not_found', `The hub has no identity provider "${input.providerId}".`);
    }
    if (!provider.allowedEmailDomains.includes(domain)) {
      throw new ApiError(
        400,
        'validation_failed',
        `${provider.label} ("${provider.id}") does not vouch for addresses at ${domain}: its email domains are ` +
          `${provider.allowedEmailDomains.join(', ') || 'none'} ` +
          `(hub identity-provider set ${provider.id} --email-domains ${domain}).`,
      );
    }
    return this.insert(input, async (trx, now) => {
      const created = await this.orgs.insertWithOwner(trx, { slug: input.slug, name: input.name.trim() }, now);
      const pendingOwner = { email, providerId: provider.id };
      await this.pendingOwners.insert(trx, {
        organizationId: created.id,
        ...pendingOwner,
        createdAt: now.toISOString(),
      });
      return { created, owner: { pendingOwner } };
    });
  }

  /** The checks and the audit event every creation shares, around `make`, atomically. */
  private async insert(
    input: { slug: string; name: string },
    make: (trx: Executor, now: Date) => Promise<{ created: OrganizationRecord; owner: Record<string, unknown> }>,
  ): Promise<OrganizationRecord> {
    if (!SLUG_PATTERN.test(input.slug)) {
      throw new ApiError(
        400,
        'validation_failed',
        `Organization slug "${input.slug}" must match ${SLUG_PATTERN.source}.`,
      );
    }
    const name = input.name.trim();
    if (!name || name.length > 200)
      throw new ApiError(400, 'validation_failed', 'Organization name must be 1 to 200 characters.');
    const now = this.clock.now();
    const org = await this.uow.run(async (trx) => {
      if (await this.orgs.slugExists(trx, input.slug, now))
        throw conflict('slug_taken', `The organization slug "${input.slug}" is taken.`);
      const { created, owner } = await make(trx, now);
      // The organization's first event: what was created, and who holds (or will hold) its OWNER role.
      await recordChange(trx, {
        organizationId: created.id,
        target: { type: 'organization', id: created.id, label: created.name },
        before: null,
        after: { ...organizationProjection.toApi(created), ...owner },
      });
      return created;
    });
    await this.access.invalidate();
    return org;
  }

  /** Every organization with the owner it waits for, if any: the operator's list (`hub org list`). */
  async listForOperator(): Promise<Array<{ organization: OrganizationRecord; pendingOwner?: PendingOwner }>> {
    const db = this.uow.executor;
    const [all, pending] = await Promise.all([this.orgs.listAll(db), this.pendingOwners.byOrganization(db)]);
    return all.map((organization) => {
      const pendingOwner = pending.get(organization.id);
      return pendingOwner ? { organization, pendingOwner } : { organization };
    });
  }

  getSettings(organizationId: string): Promise<OrgSettingsRecord> {
    return this.orgs.getSettings(this.uow.executor, organizationId);
  }

  /** Whether plain MEMBERs may create projects in the organization. */
  async membersCanCreateProjects(organizationId: string): Promise<boolean> {
    return (await this.getSettings(organizationId)).members_can_create_projects;
  }

  /** Applies the patch; a patch that changes no setting records no audit event. */
  async updateSettings(organizationId: string, patch: Schema<'UpdateOrgSettingsRequest'>): Promise<OrgSettingsRecord> {
    const update: OrgSettingsUpdate = { membersCanCreateProjects: patch.membersCanCreateProjects };
    if (patch.autoJoin !== undefined) update.autoJoin = patch.autoJoin && checkAutoJoinRule(patch.autoJoin);
    if (update.autoJoin && !(await this.providerExists(update.autoJoin.providerId))) {
      throw badRequestAt({
        path: '/body/autoJoin/providerId',
        message: `"${update.autoJoin.providerId}" names no configured identity provider`,
      });
    }
    const now = this.clock.now();
    return this.uow.run(async (trx) => {
      const before = await this.orgs.getSettings(trx, organizationId, { lock: true });
      // A change of policy is kept and applies to tokens issued from now on; issued ones keep their expiry.
      if (patch.tokens !== undefined) update.tokenPolicy = { ...before.token_policy, ...patch.tokens };
      if (update.autoJoin) {
        const { emailDomains } = update.autoJoin;
        await requireVerifiedDomains(
          this.verifiedDomains,
          trx,
          organizationId,
          emailDomains,
          'a rule admits its people',
        );
      }
      const after = await this.orgs.updateSettings(trx, organizationId, update, now);
      if (!isDeepStrictEqual(before, after)) {
        await recordChange(trx, {
          organizationId,
          target: { type: 'organization_settings', id: organizationId, label: null },
          before: orgSettingsProjection.toApi(before),
          after: orgSettingsProjection.toApi(after),
        });
      }
      return after;
    });
  }

  findBySlug(slug: string): Promise<OrganizationRecord | undefined> {
    return this.orgs.findBySlug(this.uow.executor, slug);
  }

  listMembershipsOf(userId: string) {
    return this.orgs.listActiveMemberships(this.uow.executor, userId);
  }

  isEmpty(): Promise<boolean> {
    return this.orgs.count(this.uow.executor).then((n) => n === 0);
  }
}
