import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { ACCOUNT_QUERY_KEY } from '../../../lib/query-client';

export interface VerifyEmailBody {
  email: string;
  otp: string;
}

/** Verifying may also sign the user in, so the account is reloaded afterwards. */
export function useVerifyEmail() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: VerifyEmailBody) => apiRequest('/api/auth/email-otp/verify-email', { method: 'POST', body }),
    onSuccess: () => client.invalidateQueries({ queryKey: ACCOUNT_QUERY_KEY }),
  });
}
