import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { PAYMENT_PROFILES_QUERY_KEY } from './list-payment-profiles';

/** DELETE /api/v1/accounts/payment-profiles/{id}: forgets a saved card. */
export function useRemovePaymentProfile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest(`/api/v1/accounts/payment-profiles/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    // Removing the default card may make another one the default: the list is read again.
    onSettled: () => client.invalidateQueries({ queryKey: PAYMENT_PROFILES_QUERY_KEY }),
  });
}
