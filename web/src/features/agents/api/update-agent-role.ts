import { useQueryClient } from '@tanstack/react-query';
import { $api } from '../../../lib/api-client';
import { invalidateAgents } from './invalidate';

/** Disables (archiving the role's open sessions) or re-enables a role. */
export const useUpdateAgentRole = () => {
  const qc = useQueryClient();
  return $api.useMutation('patch', '/api/org/{orgSlug}/agent-roles/{roleId}', {
    onSuccess: (_data, { params }) => invalidateAgents(qc, params.path.orgSlug),
  });
};
