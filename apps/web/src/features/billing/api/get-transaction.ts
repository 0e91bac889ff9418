import type { Transaction } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { TRANSACTIONS_QUERY_KEY } from './list-transactions';

export const TRANSACTION_QUERY_KEY = [...TRANSACTIONS_QUERY_KEY, 'one'] as const;

/** GET /api/v1/transactions/{id}. */
export const transactionQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...TRANSACTION_QUERY_KEY, id],
    queryFn: ({ signal }) =>
      apiRequest<Transaction>(`/api/v1/transactions/${encodeURIComponent(id)}`, { signal }),
  });

export function useTransaction(id: string) {
  return useQuery(transactionQueryOptions(id));
}
