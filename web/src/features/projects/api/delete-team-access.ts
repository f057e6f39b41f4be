import { useQueryClient } from '@tanstack/react-query';
import { $api } from '../../../lib/api-client';
import { invalidateTeamAccess } from './invalidate';

export const useDeleteTeamAccess = () => {
  const qc = useQueryClient();
  return $api.useMutation('delete', '/api/org/{orgSlug}/projects/{projectId}/team-access/{teamId}', {
    onSuccess: (_data, { params }) => invalidateTeamAccess(qc, params.path.orgSlug, params.path.projectId),
  });
};
