import { useQueryClient } from '@tanstack/react-query';
import { $api } from '../../../lib/api-client';
import { invalidateTeams } from './invalidate';

export const useRevokeTeamMember = () => {
  const qc = useQueryClient();
  return $api.useMutation('post', '/api/org/{orgSlug}/teams/{teamId}/members/{userId}/revoke', {
    onSuccess: (_data, { params }) => invalidateTeams(qc, params.path.orgSlug),
  });
};
