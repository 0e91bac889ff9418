import type { SignInRequest } from '@portal/contracts';
import { reloadAccount } from '../../../lib/account';
import { apiRequest } from '../../../lib/api-client';
import { useAction } from '../../../lib/use-action';

/** Signs in, then reloads the account; the route guard moves the now signed-in user on. */
async function signIn(body: SignInRequest) {
  await apiRequest('/api/auth/sign-in/email', { method: 'POST', body });
  await reloadAccount();
}

export function useSignIn() {
  return useAction(signIn);
}
