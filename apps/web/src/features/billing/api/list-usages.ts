import type { UsageRecord } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export const USAGES_QUERY_KEY = ['usages'] as const;

/** GET /api/v1/accounts/usages: the month's monthly active users so far (§7). */
export function useUsages() {
  return useQuery({
    queryKey: USAGES_QUERY_KEY,
    queryFn: ({ signal }) => apiRequest<UsageRecord[]>('/api/v1/accounts/usages', { signal }),
  });
}
