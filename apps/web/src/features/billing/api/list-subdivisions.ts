import type { Subdivision } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { SESSION_INDEPENDENT } from '../../../lib/query-client';

export const SUBDIVISIONS_QUERY_KEY = ['subdivisions'] as const;

/** GET /api/v1/utils/subdivisions: a country's states (name and code pairs), once a country is chosen. */
export function useSubdivisions(countryCode: string) {
  return useQuery({
    queryKey: [...SUBDIVISIONS_QUERY_KEY, countryCode],
    queryFn: ({ signal }) =>
      apiRequest<Subdivision[]>(`/api/v1/utils/subdivisions?countryCode=${encodeURIComponent(countryCode)}`, {
        signal,
      }),
    enabled: countryCode !== '',
    staleTime: Infinity,
    meta: SESSION_INDEPENDENT,
  });
}
