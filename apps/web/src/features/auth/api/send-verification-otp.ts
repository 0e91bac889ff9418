import type { ResendVerificationRequest } from '@portal/contracts';
import { apiRequest } from '../../../lib/api-client';
import { useAction } from '../../../lib/use-action';

export function sendVerificationOtp({ email }: ResendVerificationRequest) {
  return apiRequest('/api/auth/email-otp/send-verification-otp', {
    method: 'POST',
    body: { email, type: 'email-verification' },
  });
}

export function useSendVerificationOtp() {
  return useAction(sendVerificationOtp);
}
