import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** What enrolment starts with: the secret as an otpauth:// URI, and the backup codes, shown once. */
export interface TwoFactorSecret {
  totpURI: string;
  backupCodes: string[];
}

/**
 * POST /api/auth/two-factor/enable: a new secret and backup codes; nothing changes at sign-in until
 * a first code confirms them. The password is asked of members who have one.
 */
export function useEnableTwoFactor() {
  return useMutation({
    mutationFn: (body: { password?: string }) =>
      apiRequest<TwoFactorSecret>('/api/auth/two-factor/enable', { method: 'POST', body }),
  });
}
