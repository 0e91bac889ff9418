import { type Account, type InitialSetupRequest, type UpdateAccountRequest } from '@portal/contracts';
import { useMutation } from '@tanstack/react-query';
import { setAccount } from '../../lib/account';
import { apiRequest } from '../../lib/api-client';

/** PUT /api/v1/accounts: the initial setup before the organisation is filled, the billing form after. */
export function useUpdateAccount() {
  return useMutation({
    mutationFn: (body: InitialSetupRequest | UpdateAccountRequest) =>
      apiRequest<Account>('/api/v1/accounts', { method: 'PUT', body }),
    onSuccess: setAccount,
  });
}
