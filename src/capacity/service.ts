import { isDeepStrictEqual } from 'node:util';
import { PROCESS_LOCAL, TtlCache, type CacheInvalidations } from '../shared/ttl-cache.js';
import { recordChange } from '../audit/trail.js';
import { MINUTE_MS, type Clock } from '../config/clock.js';
import type { Config } from '../config/config.js';
import type { Executor, UnitOfWork } from '../db/unit-of-work.js';
import { ApiError, badRequest, conflict, unprocessable } from '../errors/api-error.js';
import { ORGANIZATION_LIMIT_FLOORS, platformCeilings } from './ceilings.js';
import { CAPACITY_DIMENSIONS, type CapacityDimension, type DimensionValues, type LimitChanges } from './dimensions.js';
import type { InUseCounter, InUseCounters } from './in-use.js';
import {
  type CapacityPolicy,
  type CapacityPolicyView,
  type DimensionLimitRecord,
  dimensionLimitProjection,
  dimensionProjection,
} from './projection.js';
import { RateWindows, type RequestWindows } from './rate-window.js';
import type { CapacityStore } from './store.js';

/**
 * Layered capacity: platform ceilings from the configuration, each organization's own lower
 * limits from the database, and the effective limit every check uses. Organizations' limits are
 * cached in the process, so the per-request checks (rate, body size) cost a map lookup; a change
 * through this service clears its organization's entry at once here and, through the cache
 * invalidations (LISTEN/NOTIFY on PostgreSQL), in every other instance; the TTL bounds how long
 * a change nobody announced goes unseen. The `requestRate` windows are in memory for one
 * process, or in the database when several instances share it (`SharedRateWindows`).
 */
export class CapacityService {
  private readonly ceilings: Readonly<Record<CapacityDimension, number>>;
  private readonly cache: TtlCache<DimensionValues>;
  /** Loads in flight, so a burst of requests after an expiry costs one query, not one each. */
  private readonly loading = new Map<string, { load: Promise<DimensionValues>; readAt: number }>();
  private readonly requestRates: RequestWindows;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly store: CapacityStore,
    private readonly inUse: InUseCounters,
    config: Pick<Config, 'ceilings' | 'bodyLimitBytes'>,
    private readonly clock: Clock,
    cacheTtlMs: number,
    shared: { invalidations?: CacheInvalidations; requestWindows?: RequestWindows } = {},
  ) {
    this.ceilings = platformCeilings(config);
    this.cache = new TtlCache(cacheTtlMs, undefined, {
      name: 'capacity',
      invalidations: shared.invalidations ?? PROCESS_LOCAL,
    });
    this.requestRates = shared.requestWindows ?? new RateWindows(MINUTE_MS);
  }

  /** All 23 dimensions in contract order with what is in use, read fresh from the database. */
  async view(organizationId: string): Promise<CapacityPolicyView> {
    const db = this.uow.reader;
    const [limits, used] = await Promise.all([
      this.dimensionLimits(organizationId, db),
      this.countInUse(db, organizationId),
    ]);
    const dimensions = limits.map((row) => dimensionProjection.toApi({ ...row, in_use: used[row.dimension] ?? null }));
    return { dimensions, warnings: overLimitWarnings(dimensions) };
  }

  private async policy(organizationId: string, db: Executor): Promise<CapacityPolicy> {
    return { dimensions: (await this.dimensionLimits(organizationId, db)).map(dimensionLimitProjection.toApi) };
  }

  /** Every dimension in contract order: its platform ceiling and the organization's own limit. */
  private async dimensionLimits(organizationId: string, db: Executor): Promise<DimensionLimitRecord[]> {
    const limits = await this.store.limitsOf(db, organizationId);
    return CAPACITY_DIMENSIONS.map((dimension) => ({
      dimension,
      platform_ceiling: this.ceilings[dimension],
      organization_limit: limits[dimension] ?? null,
    }));
  }

  private async countInUse(db: Executor, organizationId: string): Promise<DimensionValues> {
    const counted = Object.entries(this.inUse) as [CapacityDimension, InUseCounter][];
    const counts = await Promise.all(counted.map(([, count]) => count(db, organizationId)));
    return Object.fromEntries(counted.map(([dimension], i) => [dimension, counts[i]]));
  }

  /**
   * Sets (a number) or clears (null) the limits of the dimensions present; the others stay.
   * All or nothing: every rejected dimension is named in one error and nothing is written. A
   * limit below its dimension's floor is 422 `capacity_below_floor`, one above the ceiling 422
   * `capacity_above_ceiling`; when both occur, the floor's code wins (the message names all).
   */
  async update(organizationId: string, limits: LimitChanges): Promise<CapacityPolicyView> {
    const changes: Array<[CapacityDimension, number | null]> = [];
    const belowFloor: string[] = [];
    const aboveCeiling: string[] = [];
    for (const dimension of CAPACITY_DIMENSIONS) {
      const value = limits[dimension];
      if (value === undefined) continue;
      if (value !== null) {
        if (!Number.isFinite(value) || value < 0) {
          throw badRequest(`The ${dimension} limit must be a non-negative number.`, [
            { path: `/body/limits/${dimension}`, message: 'must be >= 0' },
          ]);
        }
        const floor = ORGANIZATION_LIMIT_FLOORS[dimension];
        const ceiling = this.ceilings[dimension];
        if (floor !== undefined && value < floor)
          belowFloor.push(`${dimension} ${value} is below its floor of ${floor}`);
        else if (value > ceiling)
          aboveCeiling.push(`${dimension} ${value} is above its platform ceiling of ${ceiling}`);
      }
      changes.push([dimension, value]);
    }
    if (belowFloor.length > 0 || aboveCeiling.length > 0) throw rejected(belowFloor, aboveCeiling);
    if (changes.length > 0) {
      await this.applyRecorded(organizationId, changes);
      await this.forget(organizationId);
    }
    return this.view(organizationId);
  }

  /**
   * Lifts the organization's own limit of one dimension (`hub capacity clear`): the operator's way
   * out when a limit locks the organization out of the API that would clear it. Returns whether
   * there was a limit to clear.
   */
  async clearLimit(organizationId: string, dimension: CapacityDimension): Promise<boolean> {
    const { changed } = await this.applyRecorded(organizationId, [[dimension, null]]);
    if (changed) await this.forget(organizationId);
    return changed;
  }

  /**
   * Applies the changes in one transaction with their audit event, the policy as the API shows
   * it before and after; a change that leaves the policy as it was (a limit set to the value it
   * has) records none. The organization's row is locked first, so concurrent changes of one
   * policy apply one after another and each event's `before` is the policy it replaced.
   */
  private async applyRecorded(
    organizationId: string,
    changes: ReadonlyArray<[CapacityDimension, number | null]>,
  ): Promise<{ changed: boolean }> {
    const at = this.clock.now().toISOString();
    return this.uow.run(async (trx) => {
      await this.store.lockOrganization(trx, organizationId);
      const before = await this.policy(organizationId, trx);
      await this.store.apply(trx, organizationId, changes, at);
      const after = await this.policy(organizationId, trx);
      const changed = !isDeepStrictEqual(before, after);
      if (changed) {
        await recordChange(trx, {
          organizationId,
          target: { type: 'capacity_policy', id: organizationId, label: null },
          before,
          after,
        });
      }
      return { changed };
    });
  }

  /**
   * The limit that applies to the organization in the dimension: never unlimited, since every
   * dimension has a ceiling. The one answer to "how much may this organization use": this
   * service's checks, skill ingestion and the agent runtime (`services.capacity.effectiveLimit`,
   * docs/administering.md, "Capacity") all ask it.
   */
  async effectiveLimit(organizationId: string, dimension: CapacityDimension): Promise<number> {
    return this.effectiveIn(await this.limitsOf(organizationId), dimension);
  }

  /**
   * Refuses one more active row of a counted dimension (members, teams, folders, projects) when
   * the organization is at its limit. Call it inside the transaction that inserts the row: it
   * locks the organization first, so concurrent creates — through this instance or any other on
   * the same database — are counted one after another and cannot together overshoot the limit.
   * The limit is read under that lock, never from a cache, so a limit just set through another
   * instance binds this create.
   */
  async ensureRoom(trx: Executor, organizationId: string, dimension: CapacityDimension): Promise<void> {
    const countActive = this.inUse[dimension];
    if (!countActive) throw new Error(`capacity: ${dimension} has no counter, so nothing can be refused by it`);
    await this.store.lockOrganization(trx, organizationId);
    const limit = this.effectiveIn(await this.store.limitsOf(trx, organizationId), dimension);
    const active = await countActive(trx, organizationId);
    if (active + 1 > limit) {
      throw conflict(
        'capacity_exceeded',
        `The organization's ${dimension} limit is ${limit} and ${active} are active; nothing was created.`,
      );
    }
  }

  /**
   * Counts one request of the organization against its `requestRate` (429 with Retry-After
   * when over; a refused request is not counted). Synchronous while the organization's limits
   * are cached and the windows are in memory; one statement on PostgreSQL's shared windows.
   */
  admitRequest(organizationId: string): void | Promise<void> {
    const limits = this.limitsOf(organizationId);
    if (limits instanceof Promise) return limits.then((loaded) => this.countRequest(organizationId, loaded));
    return this.countRequest(organizationId, limits);
  }

  /**
   * The largest request body the organization accepts, in bytes: its `requestBodySize`, never
   * above what the server parses at all. Synchronous while the organization's limits are cached.
   */
  bodyLimitOf(organizationId: string, serverLimit: number): number | Promise<number> {
    const limits = this.limitsOf(organizationId);
    const bodyLimit = (loaded: DimensionValues) => Math.min(serverLimit, this.effectiveIn(loaded, 'requestBodySize'));
    return limits instanceof Promise ? limits.then(bodyLimit) : bodyLimit(limits);
  }

  private countRequest(organizationId: string, limits: DimensionValues): void | Promise<void> {
    const rate = this.effectiveIn(limits, 'requestRate');
    const waitMs = this.requestRates.take(organizationId, rate, this.clock.now().getTime());
    if (waitMs instanceof Promise) {
      return waitMs.then((wait) => {
        if (wait > 0) throw rateLimited(rate, wait);
      });
    }
    if (waitMs > 0) throw rateLimited(rate, waitMs);
  }

  private effectiveIn(limits: DimensionValues, dimension: CapacityDimension): number {
    const limit = limits[dimension];
    return limit === undefined ? this.ceilings[dimension] : Math.min(this.ceilings[dimension], limit);
  }

  /**
   * The organization's limits, from the cache when it holds them. Inside a transaction the load
   * goes through that transaction and never waits on a load in flight: on SQLite's single
   * connection, a load queued behind the transaction would wait for it forever.
   */
  private limitsOf(organizationId: string, trx?: Executor): DimensionValues | Promise<DimensionValues> {
    const cached = this.cache.get(organizationId, this.clock.now().getTime());
    if (cached) return cached;
    if (trx) return this.load(organizationId, trx);
    const readAt = this.cache.mark();
    const inFlight = this.loading.get(organizationId);
    // A load that began before an invalidation (here or in another instance) is not shared.
    if (inFlight && inFlight.readAt === readAt) return inFlight.load;
    const load = this.load(organizationId).finally(() => {
      if (this.loading.get(organizationId)?.load === load) this.loading.delete(organizationId);
    });
    this.loading.set(organizationId, { load, readAt });
    return load;
  }

  private async load(organizationId: string, db: Executor = this.uow.executor): Promise<DimensionValues> {
    const readAt = this.cache.mark();
    const limits = await this.store.limitsOf(db, organizationId);
    this.cache.set(organizationId, limits, this.clock.now().getTime(), readAt);
    return limits;
  }

  /** After a committed change: this instance forgets at once, the others once notified. */
  private forget(organizationId: string): Promise<void> {
    this.loading.delete(organizationId);
    return this.cache.invalidate(organizationId);
  }
}

function rejected(belowFloor: string[], aboveCeiling: string[]): ApiError {
  const message = `Nothing was changed: ${[...belowFloor, ...aboveCeiling].join('; ')}.`;
  return unprocessable(belowFloor.length > 0 ? 'capacity_below_floor' : 'capacity_above_ceiling', message);
}

function rateLimited(perMinute: number, waitMs: number): ApiError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new ApiError(
    429,
    'rate_limited',
    `This organization's requestRate limit is ${perMinute} requests per minute; retry in ${seconds} s.`,
    undefined,
    { 'Retry-After': String(seconds) },
  );
}

/**
 * A warning for each dimension used beyond its effective limit: a limit may be set below what is
 * in use (nothing existing is removed), and then nothing more of it can be added until use is below.
 */
function overLimitWarnings(dimensions: CapacityPolicyView['dimensions']): CapacityPolicyView['warnings'] {
  return dimensions.flatMap(({ dimension, inUse: used, effective }) =>
    used !== null && effective !== null && used > effective
      ? [
          {
            dimension,
            inUse: used,
            effective,
            message:
              `${dimension}: ${used} in use, above the limit of ${effective}. Nothing in use is removed; ` +
              'nothing more can be added until use is below the limit.',
          },
        ]
      : [],
  );
}
