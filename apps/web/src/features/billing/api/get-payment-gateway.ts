import type { PaymentGatewayConfiguration } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export const PAYMENT_GATEWAY_QUERY_KEY = ['payment-gateway'] as const;

/**
 * GET /api/v1/accounts/payment-gateway: the card provider's client configuration (§3), which says
 * which card form collects a new card and where it sends the card to be tokenised.
 */
export function usePaymentGateway() {
  return useQuery({
    queryKey: PAYMENT_GATEWAY_QUERY_KEY,
    queryFn: ({ signal }) =>
      apiRequest<PaymentGatewayConfiguration>('/api/v1/accounts/payment-gateway', { signal }),
    // The provider is the portal's configuration: it does not change while the page is open.
    staleTime: Infinity,
  });
}
