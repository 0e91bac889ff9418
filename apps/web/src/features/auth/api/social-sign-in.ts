import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';

/** better-auth answers a redirect-based sign-in with the identity provider's address. */
export const ExternalSignInResponseSchema = z.object({ url: z.string() });

// Failures come back to / with error_description, where the route guard decides where to show them.
export function signInWithGoogle() {
  return apiRequest('/api/auth/sign-in/social', {
    method: 'POST',
    body: { provider: 'google', callbackURL: '/', errorCallbackURL: '/', newUserCallbackURL: '/' },
    schema: ExternalSignInResponseSchema,
  });
}

export function useGoogleSignIn() {
  return useMutation({
    mutationFn: signInWithGoogle,
    onSuccess: ({ url }) => window.location.assign(url),
  });
}
