import { AccountSchema, type InitialSetupRequest, type UpdateAccountRequest } from '@portal/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from './api-client';
import { ACCOUNT_QUERY_KEY } from './query-client';

/** PUT /api/v1/accounts: the initial setup before the organisation is filled, the billing form after. */
export function useUpdateAccount() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: InitialSetupRequest | UpdateAccountRequest) =>
      apiRequest('/api/v1/accounts', { method: 'PUT', body, schema: AccountSchema }),
    onSuccess: (account) => client.setQueryData(ACCOUNT_QUERY_KEY, account),
  });
}
