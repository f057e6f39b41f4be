import type { Schema } from '../api/types.js';
import type { CsvCell, CsvExport } from '../http/csv.js';

/**
 * How the usage answers read as CSV: one line per row of the JSON answer, with the same numbers,
 * produced one at a time as the writer asks for them.
 */

/** The sums of a report's row, in the CSV's order after the row's own columns. */
const SUM_COLUMNS = ['runCount', 'runsWithCost', 'runsWithoutCost', 'inputTokens', 'outputTokens', 'costUsd'] as const;
const sumsOf = (row: Pick<Schema<'ProjectUsageRow'>, (typeof SUM_COLUMNS)[number]>): CsvCell[] =>
  SUM_COLUMNS.map((column) => row[column]);

/** By project: the project's id, name and folder first; grouped by person or team: the group's key and label. */
export const usageReportCsv: CsvExport<Schema<'UsageReport'>> = {
  filename: 'usage-report.csv',
  table: (report) =>
    report.groups
      ? {
          header: ['key', 'label', ...SUM_COLUMNS],
          rows: (function* (): Generator<CsvCell[]> {
            for (const g of report.groups ?? []) yield [g.key, g.label, ...sumsOf(g)];
          })(),
        }
      : {
          header: ['projectId', 'projectName', 'folderId', ...SUM_COLUMNS],
          rows: (function* (): Generator<CsvCell[]> {
            for (const p of report.projects) yield [p.projectId, p.projectName, p.folderId, ...sumsOf(p)];
          })(),
        },
};

export const usageBreakdownCsv: CsvExport<Schema<'UsageBreakdown'>> = {
  filename: 'usage-breakdown.csv',
  table: (breakdown) => ({
    header: ['section', 'kind', 'capabilityId', 'label', 'factCount', 'quantity', 'costUsd'],
    rows: (function* (): Generator<CsvCell[]> {
      for (const k of breakdown.byFactKind) yield ['factKind', k.kind, null, null, k.factCount, k.quantity, k.costUsd];
      for (const c of breakdown.byCapability) {
        yield ['capability', 'capability', c.capabilityId, c.label, c.factCount, c.quantity, c.costUsd];
      }
    })(),
  }),
};

export const usageSeriesCsv: CsvExport<Schema<'UsageSeries'>> = {
  filename: 'usage-series.csv',
  table: (series) => ({
    header: ['bucketStart', 'key', 'label', 'runCount', 'inputTokens', 'outputTokens', 'costUsd'],
    rows: (function* (): Generator<CsvCell[]> {
      for (const bucket of series.buckets) {
        // An empty bucket still has its line: a chart made from the file needs it.
        if (bucket.groups.length === 0) yield [bucket.start, null, null, 0, 0, 0, null];
        for (const g of bucket.groups) {
          yield [bucket.start, g.key, g.label, g.runCount, g.inputTokens, g.outputTokens, g.costUsd];
        }
      }
    })(),
  }),
};
