import { reloadAccount } from '../../../lib/account';
import { apiRequest } from '../../../lib/api-client';
import { useAction } from '../../../lib/use-action';

/** The code from the authenticator app, or one of the backup codes saved at enrolment. */
export type SecondFactor = { method: 'totp' | 'backup-code'; code: string };

const ENDPOINTS = {
  totp: '/api/auth/two-factor/verify-totp',
  'backup-code': '/api/auth/two-factor/verify-backup-code',
} as const;

/** Finishes a sign-in that asked for the second factor, then reloads the account (now signed in). */
async function verifySecondFactor({ method, code }: SecondFactor) {
  await apiRequest(ENDPOINTS[method], { method: 'POST', body: { code } });
  await reloadAccount();
}

export function useVerifySecondFactor() {
  return useAction(verifySecondFactor);
}
