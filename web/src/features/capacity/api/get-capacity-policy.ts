import { useQuery } from '@tanstack/react-query';
import { $api, orgPath } from '../../../lib/api-client';

export const getCapacityPolicyQueryOptions = (orgSlug: string) =>
  $api.queryOptions('get', '/api/org/{orgSlug}/capacity-policy', orgPath(orgSlug));
export const useCapacityPolicy = (orgSlug: string) => useQuery(getCapacityPolicyQueryOptions(orgSlug));
