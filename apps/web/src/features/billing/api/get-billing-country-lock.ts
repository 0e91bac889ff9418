import type { BillingCountryLock } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export const BILLING_COUNTRY_LOCK_QUERY_KEY = ['billing-country-lock'] as const;

/**
 * GET /api/v1/accounts/billing-country: whether a card payment has fixed the billing country
 * (decision 030). Asked by the billing form alone, and again each time it is shown, as a payment
 * elsewhere may have fixed it since.
 */
export function useBillingCountryLock() {
  return useQuery({
    queryKey: BILLING_COUNTRY_LOCK_QUERY_KEY,
    queryFn: ({ signal }) => apiRequest<BillingCountryLock>('/api/v1/accounts/billing-country', { signal }),
  });
}
