import { useQuery, useQueryClient } from '@tanstack/react-query';
import { $api, orgPath, orgQueryKey } from '../../lib/api-client';
import { getMeQueryOptions } from '../../lib/queries/get-me';

/** The organization's name, slug and status show in the header and the organization list of /api/me. */
const invalidateOrganization = (qc: ReturnType<typeof useQueryClient>, orgSlug: string) =>
  Promise.all([
    qc.invalidateQueries({ queryKey: getMeQueryOptions().queryKey }),
    qc.invalidateQueries({ queryKey: orgQueryKey('/api/org/{orgSlug}', orgSlug) }),
  ]);

export const useRenameOrganization = () => {
  const qc = useQueryClient();
  return $api.useMutation('patch', '/api/org/{orgSlug}', {
    onSuccess: (_data, { params }) => invalidateOrganization(qc, params.path.orgSlug),
  });
};

export const useDeleteOrganization = () => {
  const qc = useQueryClient();
  return $api.useMutation('delete', '/api/org/{orgSlug}', {
    onSuccess: (_data, { params }) => invalidateOrganization(qc, params.path.orgSlug),
  });
};

export const useRestoreOrganization = () => {
  const qc = useQueryClient();
  return $api.useMutation('post', '/api/org/{orgSlug}/restore', {
    onSuccess: (_data, { params }) => invalidateOrganization(qc, params.path.orgSlug),
  });
};

const TRANSFERS = '/api/org/{orgSlug}/ownership-transfers';

export const getTransfersQueryOptions = (orgSlug: string) => $api.queryOptions('get', TRANSFERS, orgPath(orgSlug));
export const useOwnershipTransfers = (orgSlug: string) => useQuery(getTransfersQueryOptions(orgSlug));

/** A transfer's every step changes the list, and an accepted one both people's roles. */
const invalidateTransfers = (qc: ReturnType<typeof useQueryClient>, orgSlug: string) =>
  Promise.all([
    qc.invalidateQueries({ queryKey: orgQueryKey(TRANSFERS, orgSlug) }),
    qc.invalidateQueries({ queryKey: getMeQueryOptions().queryKey }),
    qc.invalidateQueries({ queryKey: orgQueryKey('/api/org/{orgSlug}/members', orgSlug) }),
  ]);

export const useOfferOwnership = () => {
  const qc = useQueryClient();
  return $api.useMutation('post', '/api/org/{orgSlug}/ownership-transfers', {
    onSuccess: (_data, { params }) => invalidateTransfers(qc, params.path.orgSlug),
  });
};

export const useAcceptTransfer = () => {
  const qc = useQueryClient();
  return $api.useMutation('post', '/api/org/{orgSlug}/ownership-transfers/{transferId}/accept', {
    onSuccess: (_data, { params }) => invalidateTransfers(qc, params.path.orgSlug),
  });
};

export const useCancelTransfer = () => {
  const qc = useQueryClient();
  return $api.useMutation('post', '/api/org/{orgSlug}/ownership-transfers/{transferId}/cancel', {
    onSuccess: (_data, { params }) => invalidateTransfers(qc, params.path.orgSlug),
  });
};

export const useLeaveOrganization = () => {
  const qc = useQueryClient();
  return $api.useMutation('post', '/api/org/{orgSlug}/members/me/leave', {
    onSuccess: () => qc.invalidateQueries({ queryKey: getMeQueryOptions().queryKey }),
  });
};

export const getUnmanagedProjectsQueryOptions = (orgSlug: string) =>
  $api.queryOptions('get', '/api/org/{orgSlug}/projects', {
    params: { path: { orgSlug }, query: { unmanaged: 'true' } },
  });
export const useUnmanagedProjects = (orgSlug: string) => useQuery(getUnmanagedProjectsQueryOptions(orgSlug));
