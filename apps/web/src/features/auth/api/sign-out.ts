import { endSession } from '../../../lib/account';
import { apiRequest } from '../../../lib/api-client';
import { useAction } from '../../../lib/use-action';

async function signOut() {
  try {
    await apiRequest('/api/auth/sign-out', { method: 'POST', body: {} });
  } finally {
    // Even when the call fails the user asked to leave: forget the session here too.
    endSession();
  }
}

export function useSignOut() {
  return useAction(signOut);
}
