import type { FreeCreditTier } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export const FREE_CREDIT_TIERS_QUERY_KEY = ['free-credit-tiers'] as const;

/**
 * GET /api/v1/accounts/freecredits: the free credit a top-up earns by its amount (§3 free credit
 * tier), asked for only when the organisation's top-ups earn any.
 */
export function useFreeCreditTiers(enabled: boolean) {
  return useQuery({
    queryKey: FREE_CREDIT_TIERS_QUERY_KEY,
    queryFn: ({ signal }) => apiRequest<FreeCreditTier[]>('/api/v1/accounts/freecredits', { signal }),
    enabled,
  });
}
