import { useQuery, useQueryClient } from '@tanstack/react-query';
import { $api } from '../../../lib/api-client';
import { getMeQueryOptions } from '../../../lib/queries/get-me';

/** `GET /api/me/sessions`: where the person is signed in, this browser marked. */
export const getMySessionsQueryOptions = () => $api.queryOptions('get', '/api/me/sessions');
export const useMySessions = () => useQuery(getMySessionsQueryOptions());

/** `DELETE /api/me/sessions/{sessionId}`: signs one browser out. */
export const useRevokeMySession = () => {
  const qc = useQueryClient();
  return $api.useMutation('delete', '/api/me/sessions/{sessionId}', {
    onSuccess: () => qc.invalidateQueries({ queryKey: getMySessionsQueryOptions().queryKey }),
  });
};

/** `POST /api/me/sessions/revoke-others`: signs every other browser out. */
export const useRevokeOtherSessions = () => {
  const qc = useQueryClient();
  return $api.useMutation('post', '/api/me/sessions/revoke-others', {
    onSuccess: () => qc.invalidateQueries({ queryKey: getMySessionsQueryOptions().queryKey }),
  });
};

/** `PATCH /api/me`: the name the person gives themselves. */
export const useUpdateMe = () => {
  const qc = useQueryClient();
  return $api.useMutation('patch', '/api/me', {
    onSuccess: (me) => qc.setQueryData(getMeQueryOptions().queryKey, me),
  });
};
