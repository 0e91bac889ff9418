import type { MonthlyUsage } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { USAGES_QUERY_KEY } from './list-usages';

/** Under the month's usage: what changes one (an import) changes the other. */
export const MONTHLY_USAGES_QUERY_KEY = [...USAGES_QUERY_KEY, 'monthly'] as const;

/** GET /api/v1/accounts/usages/monthly: each application's monthly active users of the last 12 months. */
export function useMonthlyUsages() {
  return useQuery({
    queryKey: MONTHLY_USAGES_QUERY_KEY,
    queryFn: ({ signal }) => apiRequest<MonthlyUsage[]>('/api/v1/accounts/usages/monthly', { signal }),
  });
}
