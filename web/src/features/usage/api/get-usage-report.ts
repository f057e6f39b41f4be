import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { $api, jsonAnswer } from '../../../lib/api-client';
import type { UsageQuery } from '../../../lib/queries/get-usage-breakdown';

export type { UsageQuery };

export const getUsageReportQueryOptions = (orgSlug: string, query: UsageQuery) =>
  $api.queryOptions('get', '/api/org/{orgSlug}/usage', { params: { path: { orgSlug }, query } });
/** The previous window's report stays on screen (marked as updating) while the next one loads. */
export const useUsageReport = (orgSlug: string, query: UsageQuery) =>
  useQuery({ ...getUsageReportQueryOptions(orgSlug, query), placeholderData: keepPreviousData, select: jsonAnswer });
