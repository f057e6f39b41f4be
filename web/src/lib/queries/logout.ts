import { $api } from '../api-client';
import { notifyError } from '../notify';

/** `POST /auth/logout`, then a full reload (at `to`) so no cached data of the session survives. */
export const useLogout = (to = '/') =>
  $api.useMutation('post', '/auth/logout', {
    onSuccess: () => window.location.assign(to),
    onError: (error) => notifyError(error, 'Sign out failed'),
  });
