import { useQueryClient } from '@tanstack/react-query';
import { $api } from '../../../lib/api-client';

export const useUpdateSettings = () => {
  const qc = useQueryClient();
  return $api.useMutation('patch', '/api/org/{orgSlug}/settings', {
    onSuccess: () => qc.invalidateQueries({ queryKey: ['get', '/api/org/{orgSlug}/settings'] }),
  });
};
