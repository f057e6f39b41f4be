import { useQueryClient } from '@tanstack/react-query';
import { $api } from '../../../lib/api-client';
import { invalidateProjects } from './invalidate';

export const useRenameProject = () => {
  const qc = useQueryClient();
  return $api.useMutation('patch', '/api/org/{orgSlug}/projects/{projectId}', {
    onSuccess: (_data, { params }) => invalidateProjects(qc, params.path.orgSlug),
  });
};
