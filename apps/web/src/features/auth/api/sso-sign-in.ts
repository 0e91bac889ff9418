import { apiRequest } from '../../../lib/api-client';
import { useAction } from '../../../lib/use-action';
import type { ExternalSignInResponse } from './social-sign-in';

async function signInWithSso(organizationSlug: string) {
  const { url } = await apiRequest<ExternalSignInResponse>('/api/auth/sign-in/sso', {
    method: 'POST',
    body: { organizationSlug, callbackURL: '/', errorCallbackURL: '/sign-in-sso' },
  });
  window.location.assign(url);
}

export function useSsoSignIn() {
  return useAction(signInWithSso);
}
