import { useQuery } from '@tanstack/react-query';
import { $api, orgPath } from '../../../lib/api-client';

export const getOrganizationQueryOptions = (orgSlug: string) =>
  $api.queryOptions('get', '/api/org/{orgSlug}', orgPath(orgSlug));
export const useOrganization = (orgSlug: string) => useQuery(getOrganizationQueryOptions(orgSlug));
