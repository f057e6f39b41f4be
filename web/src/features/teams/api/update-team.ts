import { useQueryClient } from '@tanstack/react-query';
import { $api } from '../../../lib/api-client';
import { invalidateTeams } from './invalidate';

export const useUpdateTeam = () => {
  const qc = useQueryClient();
  return $api.useMutation('patch', '/api/org/{orgSlug}/teams/{teamId}', {
    onSuccess: (_data, { params }) => invalidateTeams(qc, params.path.orgSlug),
  });
};
