import type { UpdateSsoConnectionRequest, SsoSettings } from '@portal/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { SSO_SETTINGS_QUERY_KEY } from './get-sso-settings';

/** PUT /api/v1/sso/connection: saves the identity provider (the server tests it again first). */
export function useUpdateSsoConnection() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateSsoConnectionRequest) =>
      apiRequest<SsoSettings>('/api/v1/sso/connection', { method: 'PUT', body }),
    onSuccess: (settings) => client.setQueryData(SSO_SETTINGS_QUERY_KEY, settings),
  });
}
