import type { SsoSettings, UpdateSsoSettingsRequest } from '@portal/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { reloadAccount } from '../../../lib/account';
import { apiRequest } from '../../../lib/api-client';
import { SSO_SETTINGS_QUERY_KEY } from './get-sso-settings';

/**
 * PUT /api/v1/sso/settings: the SSO domain, email domains, defaults for new members and whether
 * single sign-on is required; the account (its enforcedSSO, which hides invitations) is read again.
 */
export function useUpdateSsoSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateSsoSettingsRequest) =>
      apiRequest<SsoSettings>('/api/v1/sso/settings', { method: 'PUT', body }),
    onSuccess: (settings) => {
      client.setQueryData(SSO_SETTINGS_QUERY_KEY, settings);
      void reloadAccount();
    },
  });
}
