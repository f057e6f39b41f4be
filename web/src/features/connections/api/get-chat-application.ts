import { useQuery } from '@tanstack/react-query';
import { $api, orgPath } from '../../../lib/api-client';

export const getChatApplicationQueryOptions = (orgSlug: string) =>
  $api.queryOptions('get', '/api/org/{orgSlug}/imapp-application-connection', orgPath(orgSlug));
export const useChatApplication = (orgSlug: string) => useQuery(getChatApplicationQueryOptions(orgSlug));
