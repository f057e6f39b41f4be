import { SLUG_PATTERN } from '../shared/slug.js';
import type { Clock } from '../config/clock.js';
import { ApiError, conflict } from '../errors/api-error.js';
import type { UserStore } from '../users/store.js';
import type { OrgAccessResolver } from './access.js';
import type { Organization, OrganizationStore, OrgSettings } from './store.js';


export interface CreateOrganizationInput {
  slug: string;
  name: string;
  ownerImOpenId: string;
  ownerDisplayName?: string | undefined;
}

/** Organizations and their settings. */
export class OrganizationService {
  constructor(
    private readonly orgs: OrganizationStore,
    private readonly users: UserStore,
    private readonly access: OrgAccessResolver,
    private readonly clock: Clock,
  ) {}

  /** Creates the organization with its first OWNER (created as a user when new), atomically. */
  async create(input: CreateOrganizationInput): Promise<Organization> {
    if (!SLUG_PATTERN.test(input.slug)) {
      throw new ApiError(400, 'validation_failed', `Organization slug "${input.slug}" must match ${SLUG_PATTERN.source}.`);
    }
    const name = input.name.trim();
    if (!name || name.length > 200) throw new ApiError(400, 'validation_failed', 'Organization name must be 1 to 200 characters.');
    const now = this.clock.now();
    const org = await this.orgs.transaction(async (trx) => {
      if (await this.orgs.slugExists(input.slug, trx)) throw conflict('slug_taken', `The organization slug "${input.slug}" is taken.`);
      const owner = await this.users.ensure({ imOpenId: input.ownerImOpenId, displayName: input.ownerDisplayName }, now, trx);
      return this.orgs.insertWithOwner(trx, { slug: input.slug, name, ownerUserId: owner.id }, now);
    });
    this.access.invalidate();
    return org;
  }

  getSettings(organizationId: string): Promise<OrgSettings> {
    return this.orgs.getSettings(organizationId);
  }

  updateSettings(organizationId: string, patch: Partial<OrgSettings>): Promise<OrgSettings> {
    return this.orgs.updateSettings(organizationId, patch, this.clock.now());
  }

  findBySlug(slug: string): Promise<Organization | undefined> {
    return this.orgs.findBySlug(slug);
  }

  listMembershipsOf(userId: string) {
    return this.orgs.listActiveMemberships(userId);
  }

  isEmpty(): Promise<boolean> {
    return this.orgs.count().then((n) => n === 0);
  }
}
