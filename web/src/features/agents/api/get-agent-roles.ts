import { useQuery } from '@tanstack/react-query';
import { $api, orgPath } from '../../../lib/api-client';

/** Every role in one answer (no `limit`), by `sortOrder`, then label, then `roleId`. */
export const getAgentRolesQueryOptions = (orgSlug: string) =>
  $api.queryOptions('get', '/api/org/{orgSlug}/agent-roles', orgPath(orgSlug));
export const useAgentRoles = (orgSlug: string) => useQuery(getAgentRolesQueryOptions(orgSlug));
