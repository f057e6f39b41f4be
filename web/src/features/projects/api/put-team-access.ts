import { useQueryClient } from '@tanstack/react-query';
import { $api } from '../../../lib/api-client';
import { invalidateTeamAccess } from './invalidate';

export const usePutTeamAccess = () => {
  const qc = useQueryClient();
  return $api.useMutation('put', '/api/org/{orgSlug}/projects/{projectId}/team-access', {
    onSuccess: (_data, { params }) => invalidateTeamAccess(qc, params.path.orgSlug, params.path.projectId),
  });
};
