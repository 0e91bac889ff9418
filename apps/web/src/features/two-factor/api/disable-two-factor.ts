import { useMutation } from '@tanstack/react-query';
import { reloadAccount } from '../../../lib/account';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/auth/two-factor/disable: off, with the password of members who have one. */
export function useDisableTwoFactor() {
  return useMutation({
    mutationFn: async (body: { password?: string }) => {
      await apiRequest('/api/auth/two-factor/disable', { method: 'POST', body });
      await reloadAccount();
    },
  });
}
