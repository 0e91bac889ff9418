import type { PayTransactionRequest, PayTransactionResponse } from '@portal/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { TRANSACTIONS_QUERY_KEY } from './list-transactions';

/** POST /api/v1/transactions/{id}/pay: charges the card for what the transaction still has due. */
export function usePayTransaction(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: PayTransactionRequest) =>
      apiRequest<PayTransactionResponse>(`/api/v1/transactions/${encodeURIComponent(id)}/pay`, {
        method: 'POST',
        body,
      }),
    // Paid or not, the transaction and its summary are read again.
    onSettled: () => client.invalidateQueries({ queryKey: TRANSACTIONS_QUERY_KEY }),
  });
}
