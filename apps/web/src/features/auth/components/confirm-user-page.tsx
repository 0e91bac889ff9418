import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { CenteredFrame } from '../../../components/centered-frame';
import { Loading } from '../../../components/page-loader';
import { TextLink } from '../../../components/plain/buttons';
import { StatusAlert } from '../../../components/status-alert';
import { useTranslation } from '../../../lib/i18n';
import { useVerifyEmail } from '../api/verify-email';
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
      <CenteredFrame title={t('confirmUser.title')}>
        <StatusAlert kind="fail" message="auth.error.emailOrCodeEmpty" />
        <TextLink to="/login" small>
          {t('auth.backToLogin')}
        </TextLink>
      </CenteredFrame>
    );
  }
  return (
    <CenteredFrame title={t('confirmUser.title')}>
      <Loading label={t('confirmUser.verifying')} />
    </CenteredFrame>
  );
}
