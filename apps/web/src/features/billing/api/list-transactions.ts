import type { ListTransactionsResponse, TransactionSort } from '@portal/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { withKnownLabels } from '../transactions';

/** Every read of the organisation's transactions (pages, searches, one transaction and its invoice). */
export const TRANSACTIONS_QUERY_KEY = ['transactions'] as const;

/** GET /api/v1/transactions: a page of 30 and the total, newest or oldest first (§7). */
export const listTransactionsQueryOptions = (page: number, sortBy: TransactionSort) =>
  queryOptions({
    queryKey: [...TRANSACTIONS_QUERY_KEY, 'list', { page, sortBy }],
    queryFn: ({ signal }) =>
      apiRequest<ListTransactionsResponse>(`/api/v1/transactions?page=${page}&sortBy=${sortBy}`, { signal }),
    select: (answer) => ({ ...answer, data: withKnownLabels(answer.data) }),
    // The table keeps the page it shows while the next page or order loads.
    placeholderData: keepPreviousData,
  });

export function useTransactions(page: number, sortBy: TransactionSort) {
  return useQuery(listTransactionsQueryOptions(page, sortBy));
}
