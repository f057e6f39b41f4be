import type { RunBatch, UsageRunBatches } from './run-batches.js';
import type { UsageService } from './service.js';
import type { UsageSeriesService } from './series.js';
import type { OperationModule } from '../http/operation-table.js';
import { usageBreakdownCsv, usageReportCsv, usageSeriesCsv } from './csv-exports.js';

/**
 * The usage report and its breakdown by fact kind and external capability, as JSON or CSV; and
 * the runs the agent runtime reports.
 */
export function usageOperations(usage: UsageService, runs: UsageRunBatches) {
  return {
    ingestUsageRuns: {
      rule: 'orgAdmin',
      handle: ({ access, body, req }) =>
        runs.ingest(access.organization.id, body as RunBatch, req.get('idempotency-key')),
    },

    getUsageReport: {
      rule: 'orgAdmin',
      handle: ({ access, query }) => usage.report(access.organization.id, query),
      csv: usageReportCsv,
    },

    getUsageBreakdown: {
      rule: 'orgAdmin',
      handle: ({ access, query }) => usage.breakdown(access.organization.id, query),
      csv: usageBreakdownCsv,
    },
  } satisfies OperationModule;
}

/** The usage series by day, week or month, as JSON or CSV; and a member's own usage. */
export function usageSeriesOperations(series: UsageSeriesService) {
  return {
    getUsageSeries: {
      rule: 'orgAdmin',
      handle: ({ access, query }) => series.get(access.organization.id, query),
      csv: usageSeriesCsv,
    },

    getMyUsage: {
      rule: 'member',
      handle: ({ access, session, query }) => series.mine(access.organization.id, session.user.id, query),
    },
  } satisfies OperationModule;
}
