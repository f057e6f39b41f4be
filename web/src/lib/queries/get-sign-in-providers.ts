import { useQuery } from '@tanstack/react-query';
import { $api } from '../api-client';

/** `GET /auth/providers`: the identity providers people may sign in with (none: only login links). */
export const getSignInProvidersQueryOptions = () => $api.queryOptions('get', '/auth/providers');
export const useSignInProviders = () => useQuery(getSignInProvidersQueryOptions());
