import type { Services } from '../app/services.js';
import type { OperationModule } from '../http/operation-table.js';

/** The usage report. */
export function usageOperations({ usage }: Services): OperationModule {
  return {
    getUsageReport: {
      rule: 'orgAdmin',
      handle: ({ access, query }) => usage.report(access.organization.id, query),
    },
  };
}
