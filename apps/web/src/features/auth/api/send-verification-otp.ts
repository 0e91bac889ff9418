import type { ResendVerificationRequest } from '@portal/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export function sendVerificationOtp({ email }: ResendVerificationRequest) {
  return apiRequest('/api/auth/email-otp/send-verification-otp', {
    method: 'POST',
    body: { email, type: 'email-verification' },
  });
}

export function useSendVerificationOtp() {
  return useMutation({ mutationFn: sendVerificationOtp });
}
