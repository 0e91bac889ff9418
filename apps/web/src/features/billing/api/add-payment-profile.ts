import type { AddPaymentProfileRequest, AddPaymentProfileResponse } from '@portal/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { PAYMENT_PROFILES_QUERY_KEY } from './list-payment-profiles';
import { TRANSACTIONS_QUERY_KEY } from './list-transactions';

/**
 * POST /api/v1/accounts/payment-profiles: saves the card a gateway token names. On an inactive
 * account the card also pays what is due, so the transactions change too.
 */
export function useAddPaymentProfile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: AddPaymentProfileRequest) =>
      apiRequest<AddPaymentProfileResponse>('/api/v1/accounts/payment-profiles', { method: 'POST', body }),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: PAYMENT_PROFILES_QUERY_KEY });
      await client.invalidateQueries({ queryKey: TRANSACTIONS_QUERY_KEY });
    },
  });
}
