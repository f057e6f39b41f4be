import { useQueryClient } from '@tanstack/react-query';
import { $api } from '../../../lib/api-client';
import { invalidateAgents } from './invalidate';

export const useCreateLibraryFolder = () => {
  const qc = useQueryClient();
  return $api.useMutation('post', '/api/org/{orgSlug}/agent-library/folders', {
    onSuccess: (_data, { params }) => invalidateAgents(qc, params.path.orgSlug),
  });
};
