import { useQuery } from '@tanstack/react-query';
import { $api, orgPath } from '../../../lib/api-client';

export const getCapabilityConnectionsQueryOptions = (orgSlug: string) =>
  $api.queryOptions('get', '/api/org/{orgSlug}/capability-connections', orgPath(orgSlug));
export const useCapabilityConnections = (orgSlug: string) => useQuery(getCapabilityConnectionsQueryOptions(orgSlug));
