import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from './api-client';
import { clearSession } from './query-client';

export function useSignOut() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest('/api/auth/sign-out', { method: 'POST', body: {} }),
    // Even when the call fails the user asked to leave: forget the session here too.
    onSettled: () => clearSession(client),
  });
}
