import { useQueryClient } from '@tanstack/react-query';
import { $api } from '../../../lib/api-client';
import { invalidateChatApplication, SECRET_MUTATION } from './invalidate';

/** Creates or rotates the chat application; the request carries `appSecret`, `verificationToken`, `encryptKey`. */
export const usePutChatApplication = () => {
  const qc = useQueryClient();
  return $api.useMutation('put', '/api/org/{orgSlug}/imapp-application-connection', {
    ...SECRET_MUTATION,
    onSuccess: (_data, { params }) => invalidateChatApplication(qc, params.path.orgSlug),
  });
};
