import { useQueryClient } from '@tanstack/react-query';
import { $api } from '../../../lib/api-client';
import { invalidateTeams } from './invalidate';

export const useCreateTeam = () => {
  const qc = useQueryClient();
  return $api.useMutation('post', '/api/org/{orgSlug}/teams', {
    onSuccess: (_data, { params }) => invalidateTeams(qc, params.path.orgSlug),
  });
};
