import type { PaymentSummary } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { TRANSACTIONS_QUERY_KEY } from './list-transactions';

export const PAYMENT_SUMMARY_QUERY_KEY = [...TRANSACTIONS_QUERY_KEY, 'payment-summary'] as const;

/** GET /api/v1/transactions/{id}/payment-summary: what a charge comes to and what is still due. */
export const paymentSummaryQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...PAYMENT_SUMMARY_QUERY_KEY, id],
    queryFn: ({ signal }) =>
      apiRequest<PaymentSummary>(`/api/v1/transactions/${encodeURIComponent(id)}/payment-summary`, {
        signal,
      }),
  });

/** Only a charge has a summary (`hasPaymentSummary`): asked for only when `enabled`. */
export function usePaymentSummary(id: string, enabled: boolean) {
  return useQuery({ ...paymentSummaryQueryOptions(id), enabled });
}
