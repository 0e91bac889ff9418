import { apiRequest } from '../../../lib/api-client';
import { useAction } from '../../../lib/use-action';

export interface ResetPasswordBody {
  email: string;
  otp: string;
  password: string;
}

export function resetPassword(body: ResetPasswordBody) {
  return apiRequest('/api/auth/email-otp/reset-password', { method: 'POST', body });
}

export function useResetPassword() {
  return useAction(resetPassword);
}
