import type { Account, UpdateTourRequest } from '@portal/contracts';
import { useMutation } from '@tanstack/react-query';
import { setAccount } from '../../../lib/account';
import { apiRequest } from '../../../lib/api-client';

/** PUT /api/v1/accounts/me/tour: how the member ended the guided tour; the account answered no longer offers it. */
export function useUpdateTour() {
  return useMutation({
    mutationFn: (body: UpdateTourRequest) =>
      apiRequest<Account>('/api/v1/accounts/me/tour', { method: 'PUT', body }),
    onSuccess: setAccount,
  });
}
