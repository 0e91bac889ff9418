import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/**
 * POST /api/auth/two-factor/verify-totp with the session: the first code from the app turns two-factor
 * authentication on (the server replaces the session cookie). The account is reloaded by the caller
 * once the backup codes have been seen, since a reload may lead away from the page.
 */
export function useConfirmTwoFactor() {
  return useMutation({
    mutationFn: (code: string) =>
      apiRequest('/api/auth/two-factor/verify-totp', { method: 'POST', body: { code } }),
  });
}
