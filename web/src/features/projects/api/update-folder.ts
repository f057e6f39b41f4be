import { useQueryClient } from '@tanstack/react-query';
import { $api } from '../../../lib/api-client';
import { invalidateProjects } from './invalidate';

export const useUpdateFolder = () => {
  const qc = useQueryClient();
  return $api.useMutation('patch', '/api/org/{orgSlug}/folders/{folderId}', {
    onSuccess: (_data, { params }) => invalidateProjects(qc, params.path.orgSlug),
  });
};
