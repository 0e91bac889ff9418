import { Navigate, useSearchParams } from 'react-router';
import { CenteredFrame } from '../../../components/centered-frame';
import { Button, LinkButton } from '../../../components/plain/buttons';
import { TextField } from '../../../components/plain/fields';
import { Stack, Text } from '../../../components/plain/layout';
import { StatusAlert } from '../../../components/status-alert';
import { ApiError } from '../../../lib/api-error';
import { submitErrorText } from '../../../lib/form-errors';
import { Trans, useTranslation } from '../../../lib/i18n';
import { useSchemaForm } from '../../../lib/schema-form';
import { useSendVerificationOtp } from '../api/send-verification-otp';
import { useVerifyEmail } from '../api/verify-email';
import { failAlert, useAuthNavigationState, type AuthNavigationState } from '../navigation-state';
import { useVerificationOutcome } from '../verification-outcome';

/**
 * The address comes in navigation state (after sign-up or sign-in) or as ?email= (from a link).
 * Without one there is nothing to verify or resend: sign-up says the email is missing (§2, §5).
 */
export function VerifyEmailPage() {
  const state = useAuthNavigationState();
  const [params] = useSearchParams();
  const email = (state.email ?? params.get('email'))?.trim();
  if (!email)
    return <Navigate to="/signup" replace state={{ alert: failAlert('auth.error.emailMissing') }} />;
  return <VerifyEmail email={email} alert={state.alert ?? PENDING_VERIFICATION} />;
}

/** What the page says when no outcome was carried in: the account waits for its code (§8). */
const PENDING_VERIFICATION = { kind: 'warning', message: 'loginWithEmail.error.pendingVerification' } as const;

function VerifyEmail({ email, alert }: { email: string; alert: AuthNavigationState['alert'] }) {
  const { t } = useTranslation();
  const outcome = useVerificationOutcome();
  const verify = useVerifyEmail();
  const resend = useSendVerificationOtp();
  const form = useSchemaForm({
    defaultValues: { code: '' },
    loadSchema: () =>
      import('@portal/contracts/auth').then((auth) => auth.VerifyEmailRequestSchema.pick({ code: true })),
  });

  const onSubmit = form.handleSubmit(({ code }) =>
    verify.mutate(
      { email, otp: code },
      {
        onSuccess: outcome.onSuccess,
        // A mistyped code is corrected here; every other outcome leads away as from the mail's link.
        onError: (error, variables) =>
          error instanceof ApiError && error.code === 'INVALID_OTP'
            ? form.setError('code', { message: 'auth.error.codeInvalid' })
            : outcome.onError(error, variables),
      },
    ),
  );

  return (
    <CenteredFrame title={t('verifyEmail.title')}>
      {alert && <StatusAlert kind={alert.kind} message={alert.message} />}
      <Text>
        <Trans i18nKey="verifyEmail.sent" values={{ email }} components={{ strong: <strong /> }} />
      </Text>
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <TextField
            label={t('verifyEmail.code')}
            inputMode="numeric"
            autoComplete="one-time-code"
            {...form.field('code')}
            error={form.errorOf('code')}
          />
          <Button type="submit" loading={verify.isPending}>
            {t('verifyEmail.submit')}
          </Button>
        </Stack>
      </form>
      <Text small>
        {t('verifyEmail.noMail')}{' '}
        <LinkButton onClick={() => resend.mutate({ email })} disabled={resend.isPending}>
          {t('verifyEmail.resend')}
        </LinkButton>
      </Text>
      {resend.isSuccess && <StatusAlert kind="success" message="verifyEmail.resent" />}
      <StatusAlert kind="fail" message={submitErrorText(resend.error)} />
    </CenteredFrame>
  );
}
