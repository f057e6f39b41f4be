import { useQuery } from '@tanstack/react-query';
import { $api } from '../../../lib/api-client';

/** The stored files of a skill, read back as text; fetched only while someone looks at them. */
export const getAgentSkillFilesQueryOptions = (orgSlug: string, name: string) =>
  $api.queryOptions('get', '/api/org/{orgSlug}/agent-skills/{name}/files', { params: { path: { orgSlug, name } } });
export const useAgentSkillFiles = (orgSlug: string, name: string | null) =>
  useQuery({ ...getAgentSkillFilesQueryOptions(orgSlug, name ?? 'none'), enabled: name !== null });
