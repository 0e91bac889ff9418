import { reloadAccount } from '../../../lib/account';
import { apiRequest } from '../../../lib/api-client';
import { useAction } from '../../../lib/use-action';

export interface VerifyEmailBody {
  email: string;
  otp: string;
}

/** Verifying may also sign the user in, so the account is reloaded afterwards. */
async function verifyEmail(body: VerifyEmailBody) {
  await apiRequest('/api/auth/email-otp/verify-email', { method: 'POST', body });
  await reloadAccount();
}

export function useVerifyEmail() {
  return useAction(verifyEmail);
}
