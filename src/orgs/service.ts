import { isDeepStrictEqual } from 'node:util';
import { SLUG_PATTERN } from '../shared/slug.js';
import { recordChange } from '../audit/trail.js';
import type { Clock } from '../config/clock.js';
import type { UnitOfWork } from '../db/unit-of-work.js';
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
  ) {}

  /** Creates the organization with its first OWNER (created as a user when new), atomically. */
  async create(input: CreateOrganizationInput): Promise<OrganizationRecord> {
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
    const avatarProblem = input.ownerAvatarUrl === undefined ? undefined : avatarUrlProblem(input.ownerAvatarUrl);
    if (avatarProblem) throw new ApiError(400, 'validation_failed', `The owner's avatar URL ${avatarProblem}.`);
    const now = this.clock.now();
    const org = await this.uow.run(async (trx) => {
      if (await this.orgs.slugExists(trx, input.slug, now))
        throw conflict('slug_taken', `The organization slug "${input.slug}" is taken.`);
      // The owner's name and avatar given here are this organization's for them (src/users/shown-profile.ts).
      const ownerProfile = { displayName: input.ownerDisplayName, avatarUrl: input.ownerAvatarUrl };
      const owner = await this.users.ensure(trx, { imOpenId: input.ownerImOpenId, ...ownerProfile }, now);
      const created = await this.orgs.insertWithOwner(
        trx,
        { slug: input.slug, name, ownerUserId: owner.id, ownerProfile },
        now,
      );
      // The organization's first event: what was created, and who holds its OWNER role.
      await recordChange(trx, {
        organizationId: created.id,
        target: { type: 'organization', id: created.id, label: created.name },
        before: null,
        after: { ...organizationProjection.toApi(created), ownerImOpenId: owner.imOpenId },
      });
      return created;
    });
    await this.access.invalidate();
    return org;
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
