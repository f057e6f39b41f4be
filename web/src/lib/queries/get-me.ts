import { queryOptions, useQuery } from '@tanstack/react-query';
import { $api, fetchClient } from '../api-client';

/** `GET /api/me`; a 401 is an answer here (signed out → `null`), not an error. */
export const getMeQueryOptions = () =>
  queryOptions({
    queryKey: $api.queryOptions('get', '/api/me').queryKey,
    queryFn: async ({ signal }) => {
      const { data, error, response } = await fetchClient.GET('/api/me', { signal });
      if (response.status === 401) return null;
      if (error) throw error;
      return data;
    },
  });

export const useMe = () => useQuery(getMeQueryOptions());
