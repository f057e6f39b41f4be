import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { $api } from '../../../lib/api-client';
import type { UsageQuery } from './get-usage-report';

export const getUsageBreakdownQueryOptions = (orgSlug: string, query: UsageQuery & { projectId?: string }) =>
  $api.queryOptions('get', '/api/org/{orgSlug}/usage/breakdown', { params: { path: { orgSlug }, query } });
export const useUsageBreakdown = (orgSlug: string, query: UsageQuery & { projectId?: string }) =>
  useQuery({ ...getUsageBreakdownQueryOptions(orgSlug, query), placeholderData: keepPreviousData });
