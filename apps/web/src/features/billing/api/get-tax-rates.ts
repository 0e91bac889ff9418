import type { TaxRates } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export const TAX_RATES_QUERY_KEY = ['tax-rates'] as const;

/** GET /api/v1/accounts/tax: the tax rate of each billing country and the default rate (§3 tax rate). */
export function useTaxRates() {
  return useQuery({
    queryKey: TAX_RATES_QUERY_KEY,
    queryFn: ({ signal }) => apiRequest<TaxRates>('/api/v1/accounts/tax', { signal }),
  });
}
