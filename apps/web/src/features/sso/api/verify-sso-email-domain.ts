import type { SsoSettings } from '@portal/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { SSO_SETTINGS_QUERY_KEY } from './get-sso-settings';

/** The verify route of one listed email domain. */
export const verifySsoEmailDomainPath = (domain: string) =>
  `/api/v1/sso/email-domains/${encodeURIComponent(domain)}/verify`;

/**
 * POST /api/v1/sso/email-domains/:domain/verify: the portal asks DNS for the domain's TXT record
 * now. The answer is the page's whole state, also when the domain stays pending (its checkError
 * says why); a 404 SSO_EMAIL_DOMAIN_NOT_FOUND means it is no longer listed.
 */
export function useVerifySsoEmailDomain() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (domain: string) =>
      apiRequest<SsoSettings>(verifySsoEmailDomainPath(domain), { method: 'POST' }),
    onSuccess: (settings) => client.setQueryData(SSO_SETTINGS_QUERY_KEY, settings),
  });
}
