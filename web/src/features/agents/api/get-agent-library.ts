import { useQuery } from '@tanstack/react-query';
import { $api, orgPath } from '../../../lib/api-client';

/** The library's active folders, by `sortKey`, then name, with the roles and skills directly in each. */
export const getAgentLibraryQueryOptions = (orgSlug: string) =>
  $api.queryOptions('get', '/api/org/{orgSlug}/agent-library', orgPath(orgSlug));
export const useAgentLibrary = (orgSlug: string) => useQuery(getAgentLibraryQueryOptions(orgSlug));
