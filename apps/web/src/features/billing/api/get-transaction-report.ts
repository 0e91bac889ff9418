import type { TransactionReportResponse } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { TRANSACTIONS_QUERY_KEY } from './list-transactions';

export const TRANSACTION_REPORT_QUERY_KEY = [...TRANSACTIONS_QUERY_KEY, 'report'] as const;

/**
 * GET /api/v1/transactions/{id}/report: a signed address of the invoice PDF. It expires, so each
 * opening asks for a new one and none is kept.
 */
export function useTransactionReport(id: string) {
  return useQuery({
    queryKey: [...TRANSACTION_REPORT_QUERY_KEY, id],
    queryFn: ({ signal }) =>
      apiRequest<TransactionReportResponse>(`/api/v1/transactions/${encodeURIComponent(id)}/report`, {
        signal,
      }),
    gcTime: 0,
  });
}
