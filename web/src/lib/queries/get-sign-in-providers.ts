import { useQuery } from '@tanstack/react-query';
import { $api } from '../api-client';

/**
 * `GET /auth/providers`: the identity providers people may sign in with (none: only login links);
 * with `org`, that organization's own; with `email` (or `domain`), those for that address.
 */
export const getSignInProvidersQueryOptions = (query: { org?: string; email?: string; domain?: string } = {}) =>
  $api.queryOptions('get', '/auth/providers', { params: { query } });
export const useSignInProviders = () => useQuery(getSignInProvidersQueryOptions());
