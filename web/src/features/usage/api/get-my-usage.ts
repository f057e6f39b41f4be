import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { $api, jsonAnswer } from '../../../lib/api-client';

export type MyUsageQuery = { from: string; to: string };

export const getMyUsageQueryOptions = (orgSlug: string, query: MyUsageQuery) =>
  $api.queryOptions('get', '/api/org/{orgSlug}/usage/mine', { params: { path: { orgSlug }, query } });
/** The previous window's figures stay on screen (marked as updating) while the next ones load. */
export const useMyUsage = (orgSlug: string, query: MyUsageQuery) =>
  useQuery({ ...getMyUsageQueryOptions(orgSlug, query), placeholderData: keepPreviousData, select: jsonAnswer });
