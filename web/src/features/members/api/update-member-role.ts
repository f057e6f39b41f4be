import { useQueryClient } from '@tanstack/react-query';
import { $api } from '../../../lib/api-client';
import { invalidateMembers } from './invalidate';

export const useUpdateMemberRole = () => {
  const qc = useQueryClient();
  return $api.useMutation('patch', '/api/org/{orgSlug}/members/{userId}', {
    onSuccess: (_data, { params }) => invalidateMembers(qc, params.path.orgSlug),
  });
};
