import type { SignUpRequest } from '@portal/contracts';
import { apiRequest } from '../../../lib/api-client';
import { useAction } from '../../../lib/use-action';

/** The display name starts as the part of the address before the @. */
export function signUp({ email, password }: SignUpRequest) {
  const name = email.split('@')[0] ?? email;
  return apiRequest('/api/auth/sign-up/email', { method: 'POST', body: { email, password, name } });
}

export function useSignUp() {
  return useAction(signUp);
}
