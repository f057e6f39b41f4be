import { useQueryClient } from '@tanstack/react-query';
import { $api } from '../../../lib/api-client';
import { getAgentSkillFilesQueryOptions } from './get-agent-skill-files';
import { invalidateAgents } from './invalidate';

/** Installs a skill from its files, or replaces the content of an installed one. */
export const useInstallAgentSkill = () => {
  const qc = useQueryClient();
  return $api.useMutation('put', '/api/org/{orgSlug}/agent-skills/{name}', {
    onSuccess: (_data, { params: { path } }) =>
      Promise.all([
        invalidateAgents(qc, path.orgSlug),
        qc.invalidateQueries({ queryKey: getAgentSkillFilesQueryOptions(path.orgSlug, path.name).queryKey }),
      ]),
  });
};
