import { useQueryClient } from '@tanstack/react-query';
import { $api } from '../../../lib/api-client';
import { getInvitationsQueryKey } from './get-invitations';

/** Creates an invitation; its answer carries the link, shown once. */
export const useCreateInvitation = () => {
  const qc = useQueryClient();
  return $api.useMutation('post', '/api/org/{orgSlug}/invitations', {
    onSuccess: (_data, { params }) => qc.invalidateQueries({ queryKey: getInvitationsQueryKey(params.path.orgSlug) }),
  });
};
