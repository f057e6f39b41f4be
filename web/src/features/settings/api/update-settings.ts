import { useQueryClient } from '@tanstack/react-query';
import { $api } from '../../../lib/api-client';
import { getSettingsQueryOptions } from '../../../lib/queries/get-settings';

export const useUpdateSettings = () => {
  const qc = useQueryClient();
  return $api.useMutation('patch', '/api/org/{orgSlug}/settings', {
    onSuccess: (_data, { params }) =>
      qc.invalidateQueries({ queryKey: getSettingsQueryOptions(params.path.orgSlug).queryKey }),
  });
};
