import type { SsoSettings } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** The organisation's single sign-on settings; each change answers them whole and sets this key. */
export const SSO_SETTINGS_QUERY_KEY = ['sso-settings'] as const;

/** GET /api/v1/sso (MANAGE_SSO): the connection, the values for the identity provider, sign-in. */
export const ssoSettingsQueryOptions = queryOptions({
  queryKey: SSO_SETTINGS_QUERY_KEY,
  queryFn: ({ signal }) => apiRequest<SsoSettings>('/api/v1/sso', { signal }),
});

export function useSsoSettings() {
  return useQuery(ssoSettingsQueryOptions);
}
