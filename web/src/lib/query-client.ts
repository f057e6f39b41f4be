import { QueryCache, QueryClient } from '@tanstack/react-query';
import { errorCode } from './api-client';
import { signInPath } from './sign-in-path';

/** The app's one QueryClient: route loaders prefetch through it, screens read from it. */
export const queryClient = new QueryClient({
  queryCache: new QueryCache({
    onError(error) {
      // The session ended (expired, signed out elsewhere): to the sign-in page, which brings the person back here.
      const { pathname, search } = window.location;
      if (errorCode(error) === 'unauthenticated' && pathname !== '/signin') {
        window.location.assign(signInPath(pathname, search));
      }
    },
  }),
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      // An answer from the server (404, 403, …) will not change on a retry; a dropped connection may.
      retry: (count, error) => errorCode(error) === undefined && count < 2,
    },
  },
});
