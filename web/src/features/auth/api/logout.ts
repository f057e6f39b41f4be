import { $api } from '../../../lib/api-client';
import { notifyError } from '../../../lib/notify';

/** `POST /auth/logout`, then a full reload so no cached data of the session survives. */
export const useLogout = () =>
  $api.useMutation('post', '/auth/logout', {
    onSuccess: () => window.location.assign('/'),
    onError: (error) => notifyError(error, 'Sign out failed'),
  });
