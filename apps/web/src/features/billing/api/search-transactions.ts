import type { Transaction } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { withKnownLabels } from '../transactions';
import { TRANSACTIONS_QUERY_KEY } from './list-transactions';

export const TRANSACTION_SEARCH_QUERY_KEY = [...TRANSACTIONS_QUERY_KEY, 'search'] as const;

/** POST /api/v1/transactions/search: the transactions whose padded id starts with the term (§7). */
export const searchTransactionsQueryOptions = (term: string) =>
  queryOptions({
    queryKey: [...TRANSACTION_SEARCH_QUERY_KEY, term],
    queryFn: ({ signal }) =>
      apiRequest<Transaction[]>('/api/v1/transactions/search', { method: 'POST', body: { term }, signal }),
    select: withKnownLabels,
  });

/** Searches only while there is a term; the caller debounces it (§9: 200 ms). */
export function useTransactionSearch(term: string | null) {
  return useQuery({ ...searchTransactionsQueryOptions(term ?? ''), enabled: term !== null });
}
