import type { Executor } from '../db/unit-of-work.js';
import type { CapacityDimension } from './dimensions.js';

/** How much of a dimension the organization uses now, counted in the database it is given. */
export type InUseCounter = (db: Executor, organizationId: string) => Promise<number>;

/**
 * The dimensions this service counts, each with its one count: the policy view shows it as
 * `inUse`, and `ensureRoom` compares it with the limit before a create. The agent runtime's
 * dimensions (sizes, times, processes) are measured there and have no counter here.
 */
export type InUseCounters = Partial<Record<CapacityDimension, InUseCounter>>;
