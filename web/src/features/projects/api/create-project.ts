import { useQueryClient } from '@tanstack/react-query';
import { $api } from '../../../lib/api-client';
import { invalidateProjects } from './invalidate';

export const useCreateProject = () => {
  const qc = useQueryClient();
  return $api.useMutation('post', '/api/org/{orgSlug}/projects', {
    onSuccess: (_data, { params }) => invalidateProjects(qc, params.path.orgSlug),
  });
};
