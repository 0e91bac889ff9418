import { useNavigate } from 'react-router';
import { ApiError, errorText } from '../../lib/api-error';
import { failAlert, successAlert, type AuthNavigationState } from './navigation-state';

interface AuthDestination {
  to: string;
  state: AuthNavigationState;
}

const VERIFIED: AuthDestination = { to: '/login', state: { alert: successAlert('verifyEmail.success') } };

/** Where a failed email verification leads (§4). */
function verificationFailed(error: unknown, email: string): AuthDestination {
  const code = error instanceof ApiError ? error.code : undefined;
  if (code === 'OTP_EXPIRED')
    return { to: '/verify-email', state: { email, alert: failAlert('auth.error.codeExpired') } };
  return { to: '/login', state: { alert: failAlert(errorText(error)) } };
}

/** Callbacks for a verification call that move to the page its outcome leads to. */
export function useVerificationOutcome() {
  const navigate = useNavigate();
  const go = ({ to, state }: AuthDestination) => navigate(to, { replace: true, state });
  return {
    onSuccess: () => go(VERIFIED),
    onError: (error: unknown, { email }: { email: string }) => go(verificationFailed(error, email)),
  };
}
