import type { TopUpRequest, TopUpResponse } from '@portal/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { TRANSACTIONS_QUERY_KEY } from './list-transactions';

/** POST /api/v1/accounts/topup: charges the card and adds the amount (and its free credit) to the balance. */
export function useTopUp() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: TopUpRequest) =>
      apiRequest<TopUpResponse>('/api/v1/accounts/topup', { method: 'POST', body }),
    onSuccess: () => client.invalidateQueries({ queryKey: TRANSACTIONS_QUERY_KEY }),
  });
}
