import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { $api, orgPath, orgQueryKey } from '../../../lib/api-client';

export const getPoliciesQueryOptions = (orgSlug: string) =>
  $api.queryOptions('get', '/api/org/{orgSlug}/policies', orgPath(orgSlug));
export const usePolicies = (orgSlug: string) => useQuery(getPoliciesQueryOptions(orgSlug));

/** One policy read afresh, for its edit form: the list may be older than another admin's change. */
export const usePolicy = (orgSlug: string, policyId: string) =>
  useQuery(
    $api.queryOptions('get', '/api/org/{orgSlug}/policies/{policyId}', { params: { path: { orgSlug, policyId } } }),
  );

/** The model picker for a project and an initiator: each model allowed or not, with admission's reasons. */
export const useModelPicker = (orgSlug: string, projectId: string | null, initiator: string | null) =>
  useQuery({
    ...$api.queryOptions('get', '/api/org/{orgSlug}/agent-models', {
      params: { path: { orgSlug }, query: { projectId: projectId ?? '', initiator: initiator ?? '' } },
    }),
    enabled: projectId !== null && initiator !== null,
  });

/** Policies change what the picker answers: both are read again. */
const invalidatePolicies = (qc: QueryClient, orgSlug: string) =>
  Promise.all([
    qc.invalidateQueries({ queryKey: orgQueryKey('/api/org/{orgSlug}/policies', orgSlug) }),
    qc.invalidateQueries({ queryKey: orgQueryKey('/api/org/{orgSlug}/agent-models', orgSlug) }),
  ]);

export const useCreatePolicy = () => {
  const qc = useQueryClient();
  return $api.useMutation('post', '/api/org/{orgSlug}/policies', {
    onSuccess: (_data, { params }) => invalidatePolicies(qc, params.path.orgSlug),
  });
};

export const useUpdatePolicy = () => {
  const qc = useQueryClient();
  return $api.useMutation('patch', '/api/org/{orgSlug}/policies/{policyId}', {
    onSuccess: (_data, { params }) => invalidatePolicies(qc, params.path.orgSlug),
  });
};

export const useDeletePolicy = () => {
  const qc = useQueryClient();
  return $api.useMutation('delete', '/api/org/{orgSlug}/policies/{policyId}', {
    onSuccess: (_data, { params }) => invalidatePolicies(qc, params.path.orgSlug),
  });
};

/** Asks admission about a run: it changes nothing, so nothing is read again. */
export const useAdmitRun = () => $api.useMutation('post', '/api/org/{orgSlug}/admission');
