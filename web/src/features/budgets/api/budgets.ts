import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { $api, orgPath, orgQueryKey } from '../../../lib/api-client';
import { cursorPages } from '../../../lib/cursor-pages';

export const getBudgetsQueryOptions = (orgSlug: string) =>
  $api.queryOptions('get', '/api/org/{orgSlug}/budgets', orgPath(orgSlug));
export const useBudgets = (orgSlug: string) => useQuery(getBudgetsQueryOptions(orgSlug));

export const BUDGET_MEMBERS_PAGE_SIZE = 20;
const MEMBERS_PATH = '/api/org/{orgSlug}/budgets/{budgetId}/members';

/** The members at or over a per-member budget's threshold, most spent first, a page at a time. */
export const useBudgetMembers = (orgSlug: string, budgetId: string) =>
  $api.useInfiniteQuery(
    'get',
    MEMBERS_PATH,
    { params: { path: { orgSlug, budgetId }, query: { limit: BUDGET_MEMBERS_PAGE_SIZE } } },
    cursorPages,
  );

/** The budgets and the members over each: a change to a budget changes both. */
const invalidateBudgets = (qc: QueryClient, orgSlug: string) =>
  Promise.all([
    qc.invalidateQueries({ queryKey: orgQueryKey('/api/org/{orgSlug}/budgets', orgSlug) }),
    qc.invalidateQueries({ queryKey: orgQueryKey(MEMBERS_PATH, orgSlug) }),
  ]);

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
