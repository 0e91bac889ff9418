import { apiRequest } from '../../../lib/api-client';
import { useAction } from '../../../lib/use-action';

/** better-auth answers a redirect-based sign-in with the identity provider's address. */
export interface ExternalSignInResponse {
  url: string;
}

// Failures come back to / with error_description, where the route guard decides where to show them.
async function signInWithGoogle() {
  const { url } = await apiRequest<ExternalSignInResponse>('/api/auth/sign-in/social', {
    method: 'POST',
    body: { provider: 'google', callbackURL: '/', errorCallbackURL: '/', newUserCallbackURL: '/' },
  });
  window.location.assign(url);
}

export function useGoogleSignIn() {
  return useAction(signInWithGoogle);
}
