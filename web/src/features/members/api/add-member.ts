import { useQueryClient } from '@tanstack/react-query';
import { $api } from '../../../lib/api-client';
import { invalidateMembers } from './invalidate';

export const useAddMember = () => {
  const qc = useQueryClient();
  return $api.useMutation('post', '/api/org/{orgSlug}/members', {
    onSuccess: (_data, { params }) => invalidateMembers(qc, params.path.orgSlug),
  });
};
