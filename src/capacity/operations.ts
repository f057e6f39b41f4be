import type { CapacityService } from './service.js';
import type { OperationModule } from '../http/operation-table.js';

/** The organization's capacity policy: ceilings, its own limits and the effective limits. */
export function capacityOperations(capacity: CapacityService) {
  return {
    getCapacityPolicy: {
      rule: 'orgAdmin',
      handle: ({ access }) => capacity.view(access.organization.id),
    },

    updateCapacityPolicy: {
      rule: 'orgAdmin',
      handle: ({ access, body }) => capacity.update(access.organization.id, body.limits),
    },
  } satisfies OperationModule;
}
