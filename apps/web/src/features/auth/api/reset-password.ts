import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export interface ResetPasswordBody {
  email: string;
  otp: string;
  password: string;
}

export function resetPassword(body: ResetPasswordBody) {
  return apiRequest('/api/auth/email-otp/reset-password', { method: 'POST', body });
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
