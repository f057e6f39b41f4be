import { useQueryClient } from '@tanstack/react-query';
import { $api } from '../../../lib/api-client';
import { getMeQueryOptions } from '../../../lib/queries/get-me';
import { getMyInvitationsQueryOptions } from './get-my-invitations';

/**
 * Joining changes the person's organizations and what is still addressed to them. `me` is fetched
 * again even when no screen watches it, before the caller moves into the organization it joined.
 */
const joined = (qc: ReturnType<typeof useQueryClient>) =>
  Promise.all([
    qc.invalidateQueries({ queryKey: getMeQueryOptions().queryKey, refetchType: 'all' }),
    qc.invalidateQueries({ queryKey: getMyInvitationsQueryOptions().queryKey }),
  ]);

/** Accepts the invitation a link names. */
export const useAcceptInvitation = () => {
  const qc = useQueryClient();
  return $api.useMutation('post', '/api/invitations/{token}/accept', { onSuccess: () => joined(qc) });
};

/** Accepts, by id, an invitation addressed to the person's verified email. */
export const useAcceptMyInvitation = () => {
  const qc = useQueryClient();
  return $api.useMutation('post', '/api/me/invitations/{invitationId}/accept', { onSuccess: () => joined(qc) });
};
