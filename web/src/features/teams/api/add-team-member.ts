import { useQueryClient } from '@tanstack/react-query';
import { $api } from '../../../lib/api-client';
import { invalidateTeams } from './invalidate';

export const useAddTeamMember = () => {
  const qc = useQueryClient();
  return $api.useMutation('post', '/api/org/{orgSlug}/teams/{teamId}/members', {
    onSuccess: (_data, { params }) => invalidateTeams(qc, params.path.orgSlug),
  });
};
