import { useQuery, useQueryClient } from '@tanstack/react-query';
import { $api, orgQueryKey } from '../../../lib/api-client';

/** What removing the member would stop (their personal tokens) and leave (what they created). */
export const getMemberDepartureQueryOptions = (orgSlug: string, userId: string) =>
  $api.queryOptions('get', '/api/org/{orgSlug}/members/{userId}/departure', { params: { path: { orgSlug, userId } } });
export const useMemberDeparture = (orgSlug: string, userId: string, enabled: boolean) =>
  useQuery({ ...getMemberDepartureQueryOptions(orgSlug, userId), enabled, staleTime: 0 });

/** A token on a service account taking over a leaving member's token's work (a new secret, shown once). */
export const useMoveTokenToServiceAccount = () => {
  const qc = useQueryClient();
  return $api.useMutation('post', '/api/org/{orgSlug}/api-tokens', {
    onSuccess: (_data, { params }) =>
      qc.invalidateQueries({ queryKey: orgQueryKey('/api/org/{orgSlug}/api-tokens', params.path.orgSlug) }),
  });
};
