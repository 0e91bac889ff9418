import type { PasswordResetRequest } from '@portal/contracts';
import { apiRequest } from '../../../lib/api-client';
import { useAction } from '../../../lib/use-action';

export function requestPasswordReset(body: PasswordResetRequest) {
  return apiRequest('/api/auth/email-otp/request-password-reset', { method: 'POST', body });
}

export function useRequestPasswordReset() {
  return useAction(requestPasswordReset);
}
