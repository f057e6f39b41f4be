import { useQueryClient } from '@tanstack/react-query';
import { $api } from '../../../lib/api-client';
import { invalidateAgents } from './invalidate';

/** Installs a skill from its files, or replaces the content of an installed one. */
export const useInstallAgentSkill = () => {
  const qc = useQueryClient();
  return $api.useMutation('put', '/api/org/{orgSlug}/agent-skills/{name}', {
    onSuccess: () =>
      Promise.all([
        invalidateAgents(qc),
        qc.invalidateQueries({ queryKey: ['get', '/api/org/{orgSlug}/agent-skills/{name}/files'] }),
      ]),
  });
};
