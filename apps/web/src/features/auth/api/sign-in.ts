import type { SignInRequest } from '@portal/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { ACCOUNT_QUERY_KEY } from '../../../lib/query-client';

/** Signs in, then reloads the account; the route guard moves the now signed-in user on. */
export function useSignIn() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: SignInRequest) => {
      await apiRequest('/api/auth/sign-in/email', { method: 'POST', body });
      await client.invalidateQueries({ queryKey: ACCOUNT_QUERY_KEY });
    },
  });
}
