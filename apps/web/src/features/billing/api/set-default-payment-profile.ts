import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { PAYMENT_PROFILES_QUERY_KEY } from './list-payment-profiles';

/** PUT /api/v1/accounts/payment-profiles/{profileId}/default: the card payments use unless told otherwise. */
export function useSetDefaultPaymentProfile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (profileId: string) =>
      apiRequest(`/api/v1/accounts/payment-profiles/${encodeURIComponent(profileId)}/default`, {
        method: 'PUT',
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: PAYMENT_PROFILES_QUERY_KEY }),
  });
}
