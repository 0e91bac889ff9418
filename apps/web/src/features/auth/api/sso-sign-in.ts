import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { ExternalSignInResponseSchema } from './social-sign-in';

export function signInWithSso(organizationSlug: string) {
  return apiRequest('/api/auth/sign-in/sso', {
    method: 'POST',
    body: { organizationSlug, callbackURL: '/', errorCallbackURL: '/sign-in-sso' },
    schema: ExternalSignInResponseSchema,
  });
}

export function useSsoSignIn() {
  return useMutation({
    mutationFn: signInWithSso,
    onSuccess: ({ url }) => window.location.assign(url),
  });
}
