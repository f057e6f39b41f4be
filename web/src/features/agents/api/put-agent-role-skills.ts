import { useQueryClient } from '@tanstack/react-query';
import { $api } from '../../../lib/api-client';
import { invalidateAgents } from './invalidate';

/** Replaces the whole set of skills bound to a role. */
export const usePutAgentRoleSkills = () => {
  const qc = useQueryClient();
  return $api.useMutation('put', '/api/org/{orgSlug}/agent-roles/{roleId}/skills', {
    onSuccess: (_data, { params }) => invalidateAgents(qc, params.path.orgSlug),
  });
};
