import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { $api, orgPath, orgQueryKey } from '../../../lib/api-client';

export const getBudgetsQueryOptions = (orgSlug: string) =>
  $api.queryOptions('get', '/api/org/{orgSlug}/budgets', orgPath(orgSlug));
export const useBudgets = (orgSlug: string) => useQuery(getBudgetsQueryOptions(orgSlug));

const invalidateBudgets = (qc: QueryClient, orgSlug: string) =>
  qc.invalidateQueries({ queryKey: orgQueryKey('/api/org/{orgSlug}/budgets', orgSlug) });

export const useCreateBudget = () => {
  const qc = useQueryClient();
  return $api.useMutation('post', '/api/org/{orgSlug}/budgets', {
    onSuccess: (_data, { params }) => invalidateBudgets(qc, params.path.orgSlug),
  });
};

export const useUpdateBudget = () => {
  const qc = useQueryClient();
  return $api.useMutation('patch', '/api/org/{orgSlug}/budgets/{budgetId}', {
    onSuccess: (_data, { params }) => invalidateBudgets(qc, params.path.orgSlug),
  });
};

export const useDeleteBudget = () => {
  const qc = useQueryClient();
  return $api.useMutation('delete', '/api/org/{orgSlug}/budgets/{budgetId}', {
    onSuccess: (_data, { params }) => invalidateBudgets(qc, params.path.orgSlug),
  });
};
