import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { $api, jsonAnswer, orgQueryKey } from '../api-client';
/** The window and filter of a usage answer (the report's and the breakdown's query). */
export type UsageQuery = { from?: string; to?: string; folderId?: string };

const PATH = '/api/org/{orgSlug}/usage/breakdown';

export const getUsageBreakdownQueryOptions = (orgSlug: string, query: UsageQuery & { projectId?: string }) =>
  $api.queryOptions('get', PATH, { params: { path: { orgSlug }, query } });
/** The breakdown for every window and filter in the organization. */
export const getOrgUsageBreakdownQueryKey = (orgSlug: string) => orgQueryKey(PATH, orgSlug);
export const useUsageBreakdown = (orgSlug: string, query: UsageQuery & { projectId?: string }) =>
  useQuery({ ...getUsageBreakdownQueryOptions(orgSlug, query), placeholderData: keepPreviousData, select: jsonAnswer });
