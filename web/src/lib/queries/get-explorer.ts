import { useQuery } from '@tanstack/react-query';
import { $api, orgPath } from '../api-client';

/** The whole tree in one request; the explorer renders only what is expanded and in view. */
export const getExplorerQueryOptions = (orgSlug: string) =>
  $api.queryOptions('get', '/api/org/{orgSlug}/explorer', orgPath(orgSlug));
/** `enabled: false` for callers who may not read the tree (a MEMBER). */
export const useExplorer = (orgSlug: string, enabled = true) =>
  useQuery({ ...getExplorerQueryOptions(orgSlug), enabled });
