import type { ComponentDetail, InvoiceType, MauDetailLine } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { TRANSACTIONS_QUERY_KEY } from './list-transactions';

export const TRANSACTION_DETAIL_QUERY_KEY = [...TRANSACTIONS_QUERY_KEY, 'detail'] as const;

/** The answer of GET /api/v1/transactions/{id}/details/{invoiceType}, in the shape its type names. */
export type TransactionDetail =
  | { invoiceType: 'mau_based'; lines: MauDetailLine[] }
  | { invoiceType: 'component_based'; invoices: ComponentDetail[] };

async function fetchDetail(id: string, invoiceType: InvoiceType, signal: AbortSignal) {
  const path = `/api/v1/transactions/${encodeURIComponent(id)}/details/${invoiceType}`;
  return invoiceType === 'mau_based'
    ? { invoiceType, lines: await apiRequest<MauDetailLine[]>(path, { signal }) }
    : { invoiceType, invoices: await apiRequest<ComponentDetail[]>(path, { signal }) };
}

/** An invoice's lines; a transaction without an invoice (a top-up, a credit) has none to ask for. */
export function useTransactionDetail(id: string, invoiceType: InvoiceType | null | undefined) {
  return useQuery({
    queryKey: [...TRANSACTION_DETAIL_QUERY_KEY, id, invoiceType],
    queryFn: ({ signal }): Promise<TransactionDetail> => fetchDetail(id, invoiceType ?? 'mau_based', signal),
    enabled: Boolean(invoiceType),
  });
}
