import { useQueryClient } from '@tanstack/react-query';
import { $api } from '../../../lib/api-client';
import { invalidateProjects } from './invalidate';

export const useCreateFolder = () => {
  const qc = useQueryClient();
  return $api.useMutation('post', '/api/org/{orgSlug}/folders', {
    onSuccess: (_data, { params }) => invalidateProjects(qc, params.path.orgSlug),
  });
};
