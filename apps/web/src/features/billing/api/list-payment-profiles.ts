import type { PaymentProfile } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** The organisation's saved cards; each change to them invalidates this key. */
export const PAYMENT_PROFILES_QUERY_KEY = ['payment-profiles'] as const;

/** GET /api/v1/accounts/payment-profiles: the saved cards (§3 payment profile). */
export function usePaymentProfiles() {
  return useQuery({
    queryKey: PAYMENT_PROFILES_QUERY_KEY,
    queryFn: ({ signal }) => apiRequest<PaymentProfile[]>('/api/v1/accounts/payment-profiles', { signal }),
  });
}
