import { useQueryClient } from '@tanstack/react-query';
import { $api } from '../../../lib/api-client';
import { invalidateChatApplication } from './invalidate';

export const useDisableChatApplication = () => {
  const qc = useQueryClient();
  return $api.useMutation('delete', '/api/org/{orgSlug}/imapp-application-connection', {
    onSuccess: (_data, { params }) => invalidateChatApplication(qc, params.path.orgSlug),
  });
};
