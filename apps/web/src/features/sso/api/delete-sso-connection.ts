import type { SsoSettings } from '@portal/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { reloadAccount } from '../../../lib/account';
import { apiRequest } from '../../../lib/api-client';
import { SSO_SETTINGS_QUERY_KEY } from './get-sso-settings';

/**
 * DELETE /api/v1/sso/connection: forgets the identity provider, which also stops requiring single
 * sign-on; the account (its enforcedSSO) is read again.
 */
export function useDeleteSsoConnection() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<SsoSettings>('/api/v1/sso/connection', { method: 'DELETE' }),
    onSuccess: (settings) => {
      client.setQueryData(SSO_SETTINGS_QUERY_KEY, settings);
      void reloadAccount();
    },
  });
}
