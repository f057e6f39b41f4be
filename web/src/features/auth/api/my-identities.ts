import { useQuery, useQueryClient } from '@tanstack/react-query';
import { $api } from '../../../lib/api-client';

/** `GET /api/me/identities`: the accounts at identity providers the person signs in with. */
export const getMyIdentitiesQueryOptions = () => $api.queryOptions('get', '/api/me/identities');
export const useMyIdentities = () => useQuery(getMyIdentitiesQueryOptions());

/** `DELETE /api/me/identities/{identityId}`: disconnects one (the server refuses the last). */
export const useRemoveMyIdentity = () => {
  const qc = useQueryClient();
  return $api.useMutation('delete', '/api/me/identities/{identityId}', {
    onSuccess: () => qc.invalidateQueries({ queryKey: getMyIdentitiesQueryOptions().queryKey }),
  });
};
