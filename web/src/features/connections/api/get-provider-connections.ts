import { useQuery } from '@tanstack/react-query';
import { $api, orgPath } from '../../../lib/api-client';

export const getProviderConnectionsQueryOptions = (orgSlug: string) =>
  $api.queryOptions('get', '/api/org/{orgSlug}/provider-connections', orgPath(orgSlug));
export const useProviderConnections = (orgSlug: string) => useQuery(getProviderConnectionsQueryOptions(orgSlug));
