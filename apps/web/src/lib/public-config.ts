import { PublicConfigSchema } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from './api-client';
import { SESSION_INDEPENDENT } from './query-client';

export const publicConfigQueryOptions = queryOptions({
  queryKey: ['public-config'],
  queryFn: ({ signal }) => apiRequest('/api/v1/config', { schema: PublicConfigSchema, signal }),
  staleTime: Infinity,
  meta: SESSION_INDEPENDENT,
});

export function usePublicConfig() {
  return useQuery(publicConfigQueryOptions);
}
