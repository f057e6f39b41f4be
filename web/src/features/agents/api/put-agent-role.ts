import { useQueryClient } from '@tanstack/react-query';
import { $api } from '../../../lib/api-client';
import { invalidateAgents } from './invalidate';

/** Creates a role or replaces its whole definition (see `roleBody` for keeping what is not changed). */
export const usePutAgentRole = () => {
  const qc = useQueryClient();
  return $api.useMutation('put', '/api/org/{orgSlug}/agent-roles/{roleId}', {
    onSuccess: (_data, { params }) => invalidateAgents(qc, params.path.orgSlug),
  });
};
