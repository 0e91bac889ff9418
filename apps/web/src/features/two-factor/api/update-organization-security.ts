import type { Account, UpdateOrganizationSecurityRequest } from '@portal/contracts';
import { useMutation } from '@tanstack/react-query';
import { setAccount } from '../../../lib/account';
import { apiRequest } from '../../../lib/api-client';

/** PUT /api/v1/accounts/security (MANAGE_SECURITY): whether the organisation requires a second factor. */
export function useUpdateOrganizationSecurity() {
  return useMutation({
    mutationFn: (body: UpdateOrganizationSecurityRequest) =>
      apiRequest<Account>('/api/v1/accounts/security', { method: 'PUT', body }),
    onSuccess: setAccount,
  });
}
