import type { ContractRecord } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export const CONTRACTS_QUERY_KEY = ['contracts'] as const;

/** GET /api/v1/accounts/contracts: the organisation's contract type, licence and support plan (§7). */
export function useContracts() {
  return useQuery({
    queryKey: CONTRACTS_QUERY_KEY,
    queryFn: ({ signal }) => apiRequest<ContractRecord[]>('/api/v1/accounts/contracts', { signal }),
  });
}
