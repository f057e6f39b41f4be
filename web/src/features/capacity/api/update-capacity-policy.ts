import { useQueryClient } from '@tanstack/react-query';
import { $api } from '../../../lib/api-client';
import { getCapacityPolicyQueryOptions } from './get-capacity-policy';

/** Sets or clears limits; the answer is the whole policy, so the table shows it at once. */
export const useUpdateCapacityPolicy = () => {
  const qc = useQueryClient();
  return $api.useMutation('put', '/api/org/{orgSlug}/capacity-policy', {
    onSuccess: (policy, { params }) =>
      qc.setQueryData(getCapacityPolicyQueryOptions(params.path.orgSlug).queryKey, policy),
  });
};
