import { useQueryClient } from '@tanstack/react-query';
import { $api } from '../../../lib/api-client';
import { getInvitationsQueryKey } from './get-invitations';

export const useRevokeInvitation = () => {
  const qc = useQueryClient();
  return $api.useMutation('post', '/api/org/{orgSlug}/invitations/{invitationId}/revoke', {
    onSuccess: (_data, { params }) => qc.invalidateQueries({ queryKey: getInvitationsQueryKey(params.path.orgSlug) }),
  });
};
