import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { CenteredFrame } from '../../../components/centered-frame';
import { Loading } from '../../../components/page-loader';
import { useTranslation } from '../../../lib/i18n';
import { useVerifyEmail } from '../api/verify-email';
import { LinkProblem } from './link-problem';
import { useVerificationOutcome } from '../verification-outcome';

/** The landing of the verification mail's link: /confirm-user?email=…&confirmation_code=… */
export function ConfirmUserPage() {
  const { t } = useTranslation();
  const outcome = useVerificationOutcome();
  const [params] = useSearchParams();
  const email = params.get('email')?.trim();
  const code = params.get('confirmation_code')?.trim();
  const { mutate: verify } = useVerifyEmail();

  // A code is single-use: verify once even when effects run twice in development.
  const started = useRef(false);
  useEffect(() => {
    if (started.current || !email || !code) return;
    started.current = true;
    verify({ email, otp: code }, outcome);
  }, [email, code, verify, outcome]);

  if (!email || !code) {
    return (
      <LinkProblem
        title={t('confirmUser.title')}
        message="auth.error.emailOrCodeEmpty"
        to="/login"
        linkLabel={t('auth.backToLogin')}
      />
    );
  }
  return (
    <CenteredFrame title={t('confirmUser.title')}>
      <Loading label={t('confirmUser.verifying')} />
    </CenteredFrame>
  );
}
