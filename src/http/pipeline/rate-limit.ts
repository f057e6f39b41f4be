import type { CapacityService } from '../../capacity/service.js';
import { needsOrganization } from '../../auth/rules.js';
import { contextOf, established, type Stage } from './stage.js';

/**
 * 429 `rate_limited` over the organization's `requestRate`. It runs before the body is read
 * or validated, so every request of a member counts, valid or not.
 */
export const limitRequestRate =
  (capacity: CapacityService): Stage =>
  ({ rule }) => {
    if (!needsOrganization(rule)) return undefined;
    return (_req, res, next) => {
      const access = established(contextOf(res).access, 'the organization');
      const admitted = capacity.admitRequest(access.organization.id);
      // Synchronous while the organization's limits are cached: no promise per request then.
      if (admitted instanceof Promise) return admitted.then(() => next());
      next();
    };
  };
