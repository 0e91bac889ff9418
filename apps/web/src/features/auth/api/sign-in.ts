import type { SignInRequest } from '@portal/contracts';
import { reloadAccount } from '../../../lib/account';
import { apiRequest } from '../../../lib/api-client';
import { useAction } from '../../../lib/use-action';

/** Where a right password leads: signed in, or on to the second factor (two-factor authentication). */
export type SignInOutcome = 'signed-in' | 'second-factor';

/**
 * Signs in, then reloads the account; the route guard moves the now signed-in user on. A user with
 * two-factor authentication has no session yet: the page asks for the code next.
 */
async function signIn(body: SignInRequest): Promise<SignInOutcome> {
  const answer = await apiRequest<{ twoFactorRedirect?: boolean }>('/api/auth/sign-in/email', {
    method: 'POST',
    body,
  });
  if (answer.twoFactorRedirect === true) return 'second-factor';
  await reloadAccount();
  return 'signed-in';
}

export function useSignIn() {
  return useAction(signIn);
}
