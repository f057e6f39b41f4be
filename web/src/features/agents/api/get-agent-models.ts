import { useQuery } from '@tanstack/react-query';
import { $api, orgPath } from '../../../lib/api-client';

/** The model picker's choices (`HUB_MODELS` or the built-in list), in the server's order. */
export const getAgentModelsQueryOptions = (orgSlug: string) =>
  $api.queryOptions('get', '/api/org/{orgSlug}/agent-models', orgPath(orgSlug));
export const useAgentModels = (orgSlug: string) => useQuery(getAgentModelsQueryOptions(orgSlug));
