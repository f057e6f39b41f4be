import type { Clock } from '../config/clock.js';
import type { UnitOfWork } from '../db/unit-of-work.js';
import { PROCESS_LOCAL, TtlCache, type CacheInvalidations } from '../shared/ttl-cache.js';
import type { OrgAccess, OrganizationStore } from './store.js';

/**
 * Resolves "is this user an active member of the organization with this slug, and in which
 * role" — asked by every org-scoped request — through a cache that membership changes clear.
 */
export class OrgAccessResolver {
  private readonly cache: TtlCache<OrgAccess | null>;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly orgs: OrganizationStore,
    private readonly clock: Clock,
    cacheTtlMs: number,
    invalidations: CacheInvalidations = PROCESS_LOCAL,
  ) {
    this.cache = new TtlCache(cacheTtlMs, undefined, { name: 'memberships', invalidations });
  }

  async resolve(userId: string, slug: string): Promise<OrgAccess | undefined> {
    const key = `${userId}\u0000${slug}`;
    const nowMs = this.clock.now().getTime();
    const cached = await this.cache.getSettled(key, nowMs);
    if (cached !== undefined) return cached ?? undefined;
    const readAt = this.cache.mark();
    const access = await this.orgs.findActiveMembership(this.uow.executor, userId, slug);
    this.cache.set(key, access ?? null, nowMs, readAt);
    return access;
  }

  /**
   * Where a slug the organization gave up by a rename leads this user: the organization's current
   * slug while the redirect runs and they are an active member there; else undefined. Asked only
   * once `resolve` found nothing, so it costs nothing on the way of a current slug.
   */
  renamedTo(userId: string, slug: string): Promise<string | undefined> {
    return this.orgs.renamedTo(this.uow.executor, userId, slug, this.clock.now());
  }

  /**
   * Called after any change to memberships, roles, teams or organizations has committed: clears
   * this process's cache and tells the other instances; resolves once they have been told.
   */
  invalidate(): Promise<void> {
    return this.cache.invalidate();
  }
}
