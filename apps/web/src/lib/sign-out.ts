import { endSession } from './account';
import { apiRequest } from './api-client';
import { useAction } from './use-action';

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
