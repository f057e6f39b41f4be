import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { $api } from '../../../lib/api-client';
import { invalidateTeamAccess } from './invalidate';

const PATH = '/api/org/{orgSlug}/projects/{projectId}/access-requests';

/** `GET /api/me/access-requests`: the person's own requests for access, in every organization. */
export const getMyAccessRequestsQueryOptions = () => $api.queryOptions('get', '/api/me/access-requests');
export const useMyAccessRequests = () => useQuery(getMyAccessRequestsQueryOptions());

/** `GET …/access-requests`: who can grant the project, and the requests the caller may see. */
export const getAccessRequestsQueryOptions = (orgSlug: string, projectId: string) =>
  $api.queryOptions('get', PATH, { params: { path: { orgSlug, projectId } } });
export const useAccessRequests = (orgSlug: string, projectId: string) =>
  useQuery(getAccessRequestsQueryOptions(orgSlug, projectId));

type Params = { params: { path: { orgSlug: string; projectId: string } } };
/** A step changes the project's requests, the person's own list and, when approved, who can open it. */
const refresh = (qc: QueryClient, { params }: Params) =>
  Promise.all([
    qc.invalidateQueries({
      queryKey: getAccessRequestsQueryOptions(params.path.orgSlug, params.path.projectId).queryKey,
    }),
    qc.invalidateQueries({ queryKey: getMyAccessRequestsQueryOptions().queryKey }),
    invalidateTeamAccess(qc, params.path.orgSlug, params.path.projectId),
  ]);

export const useCreateAccessRequest = () => {
  const qc = useQueryClient();
  return $api.useMutation('post', PATH, { onSuccess: (_d, input) => refresh(qc, input) });
};
export const useApproveAccessRequest = () => {
  const qc = useQueryClient();
  return $api.useMutation('post', '/api/org/{orgSlug}/projects/{projectId}/access-requests/{requestId}/approve', {
    onSuccess: (_d, input) => refresh(qc, input),
  });
};
export const useDenyAccessRequest = () => {
  const qc = useQueryClient();
  return $api.useMutation('post', '/api/org/{orgSlug}/projects/{projectId}/access-requests/{requestId}/deny', {
    onSuccess: (_d, input) => refresh(qc, input),
  });
};
export const useWithdrawAccessRequest = () => {
  const qc = useQueryClient();
  return $api.useMutation('post', '/api/org/{orgSlug}/projects/{projectId}/access-requests/{requestId}/withdraw', {
    onSuccess: (_d, input) => refresh(qc, input),
  });
};
