import { useQueryClient } from '@tanstack/react-query';
import { $api } from '../../../lib/api-client';
import { invalidateAgents } from './invalidate';

/** Archives an empty library folder (409 `folder_not_empty` otherwise). */
export const useArchiveLibraryFolder = () => {
  const qc = useQueryClient();
  return $api.useMutation('post', '/api/org/{orgSlug}/agent-library/folders/{folderId}/archive', {
    onSuccess: (_data, { params }) => invalidateAgents(qc, params.path.orgSlug),
  });
};
