import type { UsageService } from './service.js';
import type { OperationModule } from '../http/operation-table.js';

/** The usage report and its breakdown by fact kind and external capability. */
export function usageOperations(usage: UsageService) {
  return {
    getUsageReport: {
      rule: 'orgAdmin',
      handle: ({ access, query }) => usage.report(access.organization.id, query),
    },

    getUsageBreakdown: {
      rule: 'orgAdmin',
      handle: ({ access, query }) => usage.breakdown(access.organization.id, query),
    },
  } satisfies OperationModule;
}
